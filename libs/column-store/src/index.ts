export { ColumnStoreError, type ColumnStore, type InsertResult, type QueryParams } from './column-store.ts';
export { clusterInsertSettings, createClickHouseStore, ensureClickHouseDatabase, type ClickHouseStoreOptions } from './clickhouse-http-store.ts';
export { CLICKHOUSE_FLOOR, parseServerVersion, requireSupportedServer, supportedServer } from './server-version.ts';
export {
  addColumnStatements,
  addIndexStatement,
  clusteredTableOf,
  clusteredTableStatements,
  clusterSchema,
  localTable,
  onCluster,
  qualified,
  type ClusteredTable,
} from './cluster-schema.ts';
export { migrateColumnStore, STEPS_TABLE, type MigrateOptions } from './migrations.ts';
export {
  clampDays,
  createTableSql,
  MAX_RETENTION_DAYS,
  perRowRetentionStep,
  RETENTION_COLUMN,
  ttlExpression,
  withinRetention,
  type ClusterTarget,
  type TableDef,
  type TableStep,
} from './table.ts';
export { toChTime, fromChTime } from './times.ts';
export {
  readSettings,
  settingsClause,
  READ_LIMIT_CODES,
  READ_LIMIT_DEFAULTS,
  READ_PRIORITY,
  SERVER_READ_LIMITS,
  type ReadClass,
  type ReadLimits,
  type QuerySettings,
} from './read-limits.ts';
export { boundedRead, readsAs, READ_TIMEOUT, READ_TOO_LARGE } from './bounded-read.ts';
export { writesFirst, type WritesFirst } from './writes-first.ts';
export {
  bucketExpr,
  bucketsOf,
  clampLimit,
  decodeCursor,
  encodeCursor,
  parseJson,
  rangeOrDefault,
  DEFAULT_LOOKBACK_MS,
  MAX_LIMIT,
  type Buckets,
  type TimeRange,
} from './time-range.ts';
