// The receiver's limits the SDK normalises to before sending (docs/sdk.md#delivery). The SDK
// ships without dependencies, so these are a copy: test/contract-conformance.unit.test.ts holds
// each equal to the receiver's own (libs/kinds, libs/config).

/** Records of every kind in one request (docs/api.md#batch). */
export const BATCH_PATH = '/ingest/batch';
/** Records per section of a batch request. */
export const MAX_BATCH_SECTION = 1000;
/** release, at the top and per log. */
export const MAX_RELEASE_LENGTH = 128;
/** trace_id, span_id, parent_span_id, request_id. */
export const MAX_ID_LENGTH = 128;
/** Breadcrumbs of one error report. */
export const MAX_BREADCRUMBS = 1000;
/** The receiver's body limit (INGEST_BODY_LIMIT_BYTES' default), after decompression. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** A score's name, its categorical label, its comment, and its id and the ids it points at (docs/api.md, "POST /ingest/scores"). */
export const MAX_SCORE_NAME = 200;
export const MAX_SCORE_LABEL = 200;
export const MAX_SCORE_COMMENT = 2000;
export const MAX_SCORE_ID = 128;
