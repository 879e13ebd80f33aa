// Everything about a telemetry kind lives in its folder; this is the package's surface.
export { BATCH_PATH, batchSchema, batchUnits, MAX_BATCH_SECTION, type Batch } from './batch.ts';
export { KINDS, EVENT_KINDS, KIND_TABLES, kindOf, kindByName, type EventKind, type EventDataByKind, type AnyKind } from './registry.ts';
export type { Kind, KindSpec, KindDocs, OtlpPart, OtlpUnit, StoredEvent, RecordOf, Row } from './kind.ts';
export { added, COMMON_FIELDS, type FieldType, type Fields, type EventOf } from './fields.ts';
export { isPlainObject, ISO_DATETIME, utc } from './checks.ts';
export { jsonDepth } from './json-depth.ts';
export { jsonObject, MAX_ID_LENGTH, MAX_JSON_DEPTH, MAX_RELEASE_LENGTH } from './request-fields.ts';
export { readIngestionRates, type IngestionRate } from './ingestion.ts';
export { MAX_RETENTION_DAYS } from '@devtrail/column-store';
export { GROUPS_TABLE, groupsSelect } from './error/groups.ts';

export { logLevels, type LogEvent } from './log/event.ts';
export { logBatchSchema, logEntrySchema, logsToEvents, MAX_LOGS_PER_BATCH, type LogBatch, type LogEntry } from './log/request.ts';
export { fastLogsToEvents } from './log/fast-path.ts';
export {
  drainBodySchema,
  drainEntrySchema,
  drainEntryToEvent,
  drainLevel,
  DRAIN_KIND,
  DRAIN_PATH,
  MAX_DRAIN_ENTRIES,
  NDJSON_TYPES,
  type DrainEntry,
} from './log/drain.ts';
export { logLevel, levelOfNumber, levelOfText } from './log/otlp.ts';
export { readLogs, type LogFilter, type LogRecord } from './log/read.ts';
export { logWhere } from './log/filter.ts';
export { readLogVolume, type LogVolume } from './log/volume.ts';
export { readLogFacets, FACET_COLUMNS, METADATA_SAMPLE, type LogFacets, type FacetValue } from './log/facets.ts';
export { readSurroundingLogs, type LogAnchor } from './log/surrounding.ts';
export { parseSearch, printSearch, SearchSyntaxError, SEARCH_FIELDS, SEARCH_LIMITS, type SearchNode } from './log/search/syntax.ts';
export { searchTerms } from './log/search/terms.ts';

export { fingerprintHex, severities, type ErrorEvent } from './error/event.ts';
export { breadcrumbSchema, errorReportSchema, MAX_BREADCRUMBS, errorToEvent, type ErrorReport } from './error/request.ts';
export { errorTypeOf, fingerprint, fingerprintParts, normaliseFrames, normaliseMessage, normalisePath, type FingerprintInput } from './error/fingerprint.ts';
export { exceptionReport } from './error/otlp.ts';
export { readErrorActivity, readErrorGroups, readErrors, type ErrorGroup, type ErrorRecord } from './error/read.ts';
export { readGroupBreakdown, type GroupBreakdownRow } from './error/group-breakdown.ts';

export { spanStatuses, type SpanEvent } from './span/event.ts';
export { spanSchema, spanToEvent, type SpanInput } from './span/request.ts';
export { SPAN_KINDS } from './span/otlp.ts';
export { readSpans, readTrace, type SpanRecord } from './span/read.ts';
export { searchTraces, type TraceSearch, type TraceSummary } from './span/search.ts';

export type { LlmEvent } from './llm/event.ts';
export { llmToEvent, llmUsageSchema, type LlmUsageInput } from './llm/request.ts';
export { GEN_AI, genAiUsage } from './llm/otlp.ts';
export { readLlmUsage, type LlmDimension, type LlmMeasure, type LlmUsageRow, type LlmUsageSummary } from './llm/read.ts';
export { readLlmByMetadata, readLlmCalls, readLlmLatency, readLlmMetadataKeys, type LlmCallFilter, type LlmCallRecord, type LlmMetadataRow } from './llm/calls.ts';
