// A score's bounds (docs/api.md, "POST /ingest/scores"): each field is bounded, so one score
// costs at most a few kilobytes in the log and the table.

export const MAX_SCORE_NAME = 200;
export const MAX_SCORE_COMMENT = 2000;
/** A categorical value (a label such as "correct", "toxic"). */
export const MAX_SCORE_LABEL = 200;
/** The client's score id, and the ids a score points at (call, trace, span, session, user). */
export const MAX_SCORE_ID = 128;
export const SCORE_DATA_TYPES = ['numeric', 'categorical', 'boolean'] as const;
export type ScoreDataType = (typeof SCORE_DATA_TYPES)[number];
/** Where a score came from: the ingest route or the SDK, an OTLP evaluation event, a member of the dashboard. */
export const SCORE_SOURCES = ['api', 'eval', 'annotation'] as const;
export type ScoreSource = (typeof SCORE_SOURCES)[number];
