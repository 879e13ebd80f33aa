export { ColumnStoreError, type ColumnStore, type QueryParams } from './column-store.ts';
export { createClickHouseStore, ensureClickHouseDatabase, type ClickHouseStoreOptions } from './clickhouse-http-store.ts';
export { migrateColumnStore, columnStoreMigrations } from './schema.ts';
export { toRow, toChTime, fromChTime, TABLE_OF } from './rows.ts';
export { readLogs, countLogs, type LogFilter, type LogRecord } from './reads/logs.ts';
export { readErrorGroups, readErrors, type ErrorGroup, type ErrorRecord } from './reads/errors.ts';
export { readTrace, readSpans, type SpanRecord } from './reads/spans.ts';
export { readLlmUsage, type LlmUsageSummary } from './reads/llm.ts';
export type { TimeRange } from './reads/time-range.ts';
