import { ttlExpression } from '@devtrail/column-store';
import { COLUMN } from '@devtrail/column-store/store-domain';

// Error groups: one row per (project, fingerprint) after merges, kept by a materialised view
// over the errors table. Every column merges idempotently, so re-inserting an event
// (at-least-once delivery) never changes a group; counts are distinct event ids.
// docs/fingerprint.md says how events are grouped.

const TIME = COLUMN.time.sql;
export const GROUPS_TABLE = 'error_groups';

export function errorGroupStatements(errorsTable: string, retentionDays: number): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${GROUPS_TABLE} (
      project_id LowCardinality(String),
      fingerprint FixedString(64),
      first_seen SimpleAggregateFunction(min, ${TIME}),
      last_seen SimpleAggregateFunction(max, ${TIME}),
      events AggregateFunction(uniqExact, UUID),
      latest AggregateFunction(argMax, Tuple(UUID, String, String, String, String, String, String, String), ${TIME}),
      max_severity SimpleAggregateFunction(max, UInt8)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (project_id, fingerprint)
    TTL ${ttlExpression('last_seen', retentionDays)}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${GROUPS_TABLE}_mv TO ${GROUPS_TABLE} AS
      SELECT project_id, fingerprint,
             min(timestamp) AS first_seen,
             max(timestamp) AS last_seen,
             uniqExactState(event_id) AS events,
             argMaxState(tuple(event_id, error_type, error_message, stack_trace, severity, service, release, environment), timestamp) AS latest,
             max(multiIf(severity = 'critical', 4, severity = 'high', 3, severity = 'medium', 2, 1)) AS max_severity
        FROM ${errorsTable}
       GROUP BY project_id, fingerprint`,
  ];
}
