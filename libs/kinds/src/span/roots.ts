import {
  clusteredTableOf,
  clusteredTableStatements,
  createTableSql,
  localTable,
  onCluster,
  qualified,
  RETENTION_COLUMN,
  type ClusterTarget,
  type TableDef,
  type TableStep,
} from '@devtrail/column-store';
import { COLUMN } from '@devtrail/column-store/store-domain';
import { SPAN_FIELDS } from './event.ts';

// Trace search lists traces by their root spans in time order, but the spans table is
// ordered by trace (a whole trace is one read), so "the newest 200 roots of the last hour"
// read every span of the range. The roots are also kept in a small table ordered by project
// and start time, filled by a materialised view on every insert into spans (and, once, from
// the spans already stored): a page of roots reads only its rows. The full root span is then
// read from spans by trace id (the sorting key); a root whose span is gone (deleted, docs/data.md)
// is left out there. Rows expire with the spans' retention.

export const ROOTS_TABLE = 'span_roots';
const VIEW = `${ROOTS_TABLE}_mv`;
const FIELDS = ['trace_id', 'start_time', 'duration_ms', 'service', 'environment', 'operation', 'status'] as const;
const COLUMNS = [
  { name: 'project_id', sql: 'LowCardinality(String)' },
  { name: 'event_id', sql: 'UUID' },
  { name: 'received_at', sql: COLUMN.time.sql },
  ...FIELDS.map((name) => ({ name, sql: SPAN_FIELDS[name].sql })),
];
const NAMES = [...COLUMNS.map((c) => c.name), RETENTION_COLUMN].join(', ');

export const ROOTS_DEF: TableDef = {
  name: ROOTS_TABLE,
  columns: COLUMNS,
  engine: 'ReplacingMergeTree',
  partitionBy: 'toYYYYMMDD(received_at)',
  orderBy: '(project_id, start_time, trace_id, event_id)',
  ttlColumn: 'received_at',
  timeColumn: 'start_time',
};

const rootsOf = (spansTable: string) => `SELECT ${NAMES} FROM ${spansTable} WHERE parent_span_id = ''`;

/**
 * The roots table and the view that fills it (the spans table's `after`). On a cluster
 * (docs/deployment.md#a-clickhouse-cluster) the table is clustered as every other, and each node's
 * view fills its own roots from its own spans, as the error groups do.
 */
export function rootsStatements(retentionDays: number, spansTable: string, cluster?: ClusterTarget): string[] {
  if (cluster)
    return [
      ...clusteredTableStatements(clusteredTableOf(ROOTS_DEF, retentionDays), cluster),
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${qualified(cluster, VIEW)} ${onCluster(cluster)} TO ${qualified(cluster, localTable(ROOTS_TABLE))} AS ${rootsOf(qualified(cluster, localTable(spansTable)))}`,
    ];
  return [createTableSql(ROOTS_DEF, retentionDays), `CREATE MATERIALIZED VIEW IF NOT EXISTS ${VIEW} TO ${ROOTS_TABLE} AS ${rootsOf(spansTable)}`];
}

/** The roots of spans stored before the view (once; a root the view copied too is one row after FINAL). */
export const rootsBackfillStep: TableStep = {
  id: 'span-roots-backfill',
  statements: (_days, spansTable) => [`INSERT INTO ${ROOTS_TABLE} (${NAMES}) ${rootsOf(spansTable)}`],
};
