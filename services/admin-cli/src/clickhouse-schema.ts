import type { Config } from '@devtrail/config';
import { clusterSchema, createTableSql, STEPS_TABLE } from '@devtrail/column-store';
import { KIND_TABLES } from '@devtrail/kinds';

// `devtrail clickhouse-schema`: the whole ClickHouse DDL, for operators who apply the schema
// themselves (CLICKHOUSE_MIGRATE=false, docs/deployment.md#a-clickhouse-cluster). With a cluster
// (--cluster or CLICKHOUSE_CLUSTER): the cluster schema, then the idempotent ALTERs that bring a
// schema an older version made up to this one. Without: the single-server schema.

export const CLICKHOUSE_SCHEMA_USAGE = `  clickhouse-schema [--cluster NAME]      print the ClickHouse DDL (the database of
                                           CLICKHOUSE_DATABASE; a cluster's: CLICKHOUSE_CLUSTER)`;

export function clickhouseSchema(config: Config, cluster: string | undefined): string {
  const { database, retentionDays } = config.clickhouse;
  const name = cluster ?? config.clickhouse.cluster;
  const statements = (list: string[]) => list.map((sql) => `${sql};\n`).join('\n');
  if (!name) {
    const create = KIND_TABLES.flatMap((t) => [createTableSql(t, retentionDays), ...(t.after?.(retentionDays, t.name) ?? [])]);
    return `-- devtrail's ClickHouse schema for one server, in database ${database} (USE ${database} first)\n\n${statements(create)}`;
  }
  const { create, upgrade } = clusterSchema(KIND_TABLES, retentionDays, { cluster: name, database });
  return [
    `-- devtrail's ClickHouse schema for cluster ${name}, database ${database} (CREATE DATABASE IF NOT EXISTS ${database} ON CLUSTER ${name} first)`,
    statements(create),
    '-- Upgrading a schema an older devtrail made: every column and index, each a no-op where it is',
    statements(upgrade),
  ].join('\n\n');
}

/** Tables a single-server migration makes that the cluster schema leaves out: devtrail's record of applied steps. */
export const SINGLE_SERVER_ONLY = [STEPS_TABLE];
