// Everything about a telemetry kind lives in its folder; this is the package's surface.
export { BATCH_PATH, batchSchema, batchUnits, MAX_BATCH_SECTION, type Batch } from './batch.ts';
export { KINDS, EVENT_KINDS, KIND_TABLES, kindOf, kindByName, kindsWithin, type EventKind, type EventDataByKind, type AnyKind } from './registry.ts';
export type { Kind, KindSpec, KindDocs, OtlpOptions, OtlpPart, OtlpUnit, StoredEvent, RecordOf, Row } from './kind.ts';
export { added, COMMON_FIELDS, type FieldType, type Fields, type EventOf } from './fields.ts';
export { isPlainObject, ISO_DATETIME, utc } from './checks.ts';
export { jsonDepth } from './json-depth.ts';
export { jsonObject, MAX_ID_LENGTH, MAX_JSON_DEPTH, MAX_RELEASE_LENGTH } from './request-fields.ts';
export { readIngestionRates, type IngestionRate } from './ingestion.ts';
export { readReleaseHealth, type ReleaseHealth, type ReleaseHealthQuery } from './session/read.ts';
export { sessionStatuses, type SessionEvent } from './session/event.ts';
export { MAX_RETENTION_DAYS } from '@devtrail/column-store';
export { GROUPS_TABLE, groupsSelect } from './error/groups.ts';
export { GROUP_COLUMNS, rebuildGroupsStatement } from './error/groups-rebuild.ts';

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
export { exportLogs, MAX_EXPORT_LOGS } from './log/export.ts';
export { readLogVolume, type LogVolume } from './log/volume.ts';
export { readLogFacets, FACET_COLUMNS, METADATA_SAMPLE, type LogFacets, type FacetValue } from './log/facets.ts';
export { readLogRanges, rangeEdges, rangesOf, rangeSearch, RANGE_BUCKETS, type LogRanges, type NumericRange } from './log/ranges.ts';
export { readSurroundingLogs, type LogAnchor } from './log/surrounding.ts';
export { LOG_SEARCH } from './log/search.ts';
export { parseSearch, printSearch, SearchSyntaxError, SEARCH_LIMITS, type SearchNode } from './search/syntax.ts';
export { searchSql, type SearchSql } from './search/sql.ts';
export { durationMs } from './search/check.ts';
export type { SearchField, SearchMap } from './search/fields.ts';
export { searchTerms } from './search/terms.ts';

export { fingerprintHex, severities, type ErrorEvent } from './error/event.ts';
export { breadcrumbSchema, clientFingerprintSchema, errorReportSchema, MAX_BREADCRUMBS, errorToEvent, type ErrorReport } from './error/request.ts';
export { defaultFingerprintText, fingerprint, fingerprintParts, type FingerprintInput, type FingerprintParts } from './error/grouping/fingerprint.ts';
export { errorTypeOf } from './error/grouping/error-type.ts';
export { stripMessage } from './error/grouping/message-mask.ts';
export { previousFingerprint } from './error/grouping/fingerprint-previous.ts';
export { earlierFingerprints, earlierList, fingerprintV2 } from './error/grouping/fingerprint-v2.ts';
export { groupType } from './error/grouping/type-family.ts';
export { similarGroups, SIMILAR_MAX, SIMILAR_SCAN, type Similar } from './error/grouping/similar.ts';
export { exceptionReport } from './error/otlp.ts';
export {
  GROUP_SORTS,
  membersOf,
  readErrorActivity,
  readErrorGroups,
  readErrors,
  readErrorServices,
  type ErrorGroup,
  type ErrorRecord,
  type GroupSort,
  type Merges,
} from './error/read.ts';
export { ERROR_SEARCH } from './error/search.ts';
export { readGroupBreakdown, type GroupBreakdownRow } from './error/group-breakdown.ts';
export {
  readGroupChart,
  readGroupReleases,
  readGroupTags,
  readGroupUsers,
  type GroupUser,
  type GroupChart,
  type GroupRelease,
  type GroupTag,
} from './error/group-detail.ts';

export { spanStatuses, type SpanEvent } from './span/event.ts';
export { spanSchema, spanToEvent, type SpanInput } from './span/request.ts';
export { SPAN_KINDS } from './span/otlp.ts';
export { readSpans, readTrace, type SpanRecord } from './span/read.ts';
export { MAX_SERVICES, readSpanServices, searchTraces, TRACE_SORTS, type TraceSearch, type TraceSort, type TraceSummary } from './span/search.ts';
export { SPAN_SEARCH } from './span/search-fields.ts';
export { MAX_EDGES, readServiceMap, type ServiceEdge } from './span/service-map.ts';
export { ROOTS_TABLE } from './span/roots.ts';

export type { LlmEvent } from './llm/event.ts';
export { llmToEvent, llmUsageSchema, type LlmUsageInput } from './llm/request.ts';
export { GEN_AI, genAiUsage } from './llm/otlp.ts';
export { readLlmUsage, SUMMARY_MEASURES, type LlmDimension, type LlmMeasure, type LlmUsageRow, type LlmUsageSummary } from './llm/read.ts';
export {
  BREAKDOWN_SORTS,
  CALL_SORTS,
  readLlmByMetadata,
  readLlmCalls,
  readLlmLatency,
  readLlmMetadataKeys,
  type LlmBreakdownSort,
  type LlmCallRecord,
  type LlmCallSort,
  type LlmMetadataRow,
} from './llm/calls.ts';
export type { LlmCallFilter } from './llm/call-filter.ts';
export { LLM_SEARCH } from './llm/search.ts';
export { PROMPT_ATTRIBUTES, PROMPT_NAME_KEYS, PROMPT_READ_PATH, PROMPT_VERSION_KEYS } from './llm/prompt-link.ts';
export { readPromptVersionUsage, promptCallsWhere, noUsage, type PromptVersionUsage } from './llm/prompt-usage.ts';
export { readLlmSessions, type LlmSession } from './llm/sessions.ts';
export { COST_SOURCES, MAX_PRICE_TIERS, MAX_PRICED_MODELS, type CostSource, type PriceOf } from './llm/cost.ts';
export { capMessages, MAX_CONTENT_CHARS, MAX_MESSAGES, toMessages, type Message, type MessagePart } from './llm/messages.ts';
export { spanConversation } from './llm/otlp-content.ts';
export { dropConversation, isConversationKey, parseJsonTexts } from './llm/conversation-keys.ts';

export { metricTypes, temporalities, type MetricEvent, type MetricType } from './metric/event.ts';
export { metricBatchSchema, metricPointSchema, metricsToEvents, MAX_POINTS_PER_BATCH, type MetricBatch, type MetricPoint } from './metric/request.ts';
export { metricsFromOtlp } from './metric/otlp.ts';
export { readMetricPoints, type MetricPointRecord } from './metric/points.ts';
export {
  readMetricAttributeKeys,
  readMetricAttributeValues,
  readMetricNames,
  MAX_ATTRIBUTE_KEYS,
  MAX_ATTRIBUTE_VALUES,
  MAX_METRIC_NAMES,
  type MetricName,
} from './metric/read.ts';
export {
  METRIC_AGGREGATIONS,
  MAX_GROUP_KEYS,
  MAX_GROUPS,
  MAX_SERIES_POINTS,
  MAX_STEPS,
  MetricQueryError,
  readMetricSeries,
  type MetricAggregation,
  type MetricSeries,
  type MetricSeriesQuery,
} from './metric/series.ts';
export { METRIC_SEARCH } from './metric/search.ts';

export type { ScoreEvent } from './score/event.ts';
export { checkScore, scoreFields, scoreSchema, scoreToEvent, type ScoreInput } from './score/request.ts';
export {
  MAX_SCORE_COMMENT,
  MAX_SCORE_ID,
  MAX_SCORE_LABEL,
  MAX_SCORE_NAME,
  SCORE_DATA_TYPES,
  SCORE_SOURCES,
  type ScoreDataType,
  type ScoreSource,
} from './score/limits.ts';
export { EVALUATION, evaluationScore } from './score/otlp.ts';
export type { ScoreFilter } from './score/latest.ts';
export { readScores, readScoreSeries, readScoreSummary, type ScoreRecord, type ScoreSeries, type ScoreSummary } from './score/read.ts';
export { readUserScores, scoresOfCalls, scoresOfPromptVersions, scoresOfSessions, MAX_CALL_SCORES, type LinkedScore, type ScoreAverage } from './score/links.ts';
export { parseScoreCondition, SCORE_CONDITION, type ScoreCondition } from './score/call-scores.ts';
