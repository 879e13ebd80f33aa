import { EVENT_KINDS, GROUPS_TABLE, KINDS, ROOTS_TABLE, rebuildGroupsStatement, type EventKind } from '@devtrail/kinds';
import type { QueryParams } from '@devtrail/column-store';
import type { Deletion } from '@devtrail/relational-store';

// What a deletion removes, as ClickHouse conditions with query parameters (docs/data.md#deletion):
// per kind table, the project's rows, narrowed by service and time range (an operator's
// deletion: the kind's event time; a lowered retention: the column retention counts from).

export interface DeletionFilter {
  /** Kinds by plural name (logs, errors, spans, llm); absent: every kind. */
  kinds?: string[];
  service?: string;
  /** ISO 8601: events at or after. */
  from?: string;
  /** ISO 8601: events before. */
  to?: string;
}

export interface TablePlan {
  table: string;
  where: string;
  params: QueryParams;
}

export interface DeletionPlan {
  tables: TablePlan[];
  /** Error groups: removed with the project, or rebuilt from what remains of the errors. */
  groups: null | { table: string; where: string; params: QueryParams; rebuild: string | null };
}

export function planDeletion(d: Deletion): DeletionPlan {
  const f = d.filter as DeletionFilter;
  const params: QueryParams = { project: d.projectId };
  // A kind part of another (scores of LLM calls) goes with it (KindSpec.partOf).
  const named = (k: EventKind) =>
    !f.kinds || f.kinds.includes(KINDS[k].name) || (KINDS[k].partOf !== undefined && f.kinds.includes(KINDS[KINDS[k].partOf as EventKind].name));
  const kinds = EVENT_KINDS.filter((k) => d.reason === 'project' || named(k));
  const tables = kinds.map((k): TablePlan => {
    const def = KINDS[k].tableDef;
    const where = ['project_id = {project:String}'];
    const p: QueryParams = { ...params };
    if (d.reason !== 'project') {
      const column = d.reason === 'retention' ? def.ttlColumn : def.timeColumn;
      // Only what was received before the deletion was asked for (ttlColumn is the receive
      // time), as consumers of the deletions topic and replay apply it (docs/topics.md, "Deletions").
      where.push(`${def.ttlColumn} < fromUnixTimestamp64Milli({before:Int64})`);
      p.before = Date.parse(d.requestedAt);
      if (f.service !== undefined) {
        where.push('service = {service:String}');
        p.service = f.service;
      }
      if (f.from) {
        where.push(`${column} >= fromUnixTimestamp64Milli({from:Int64})`);
        p.from = Date.parse(f.from);
      }
      if (f.to) {
        where.push(`${column} < fromUnixTimestamp64Milli({to:Int64})`);
        p.to = Date.parse(f.to);
      }
    }
    return { table: def.name, where: where.join(' AND '), params: p };
  });
  // The spans' roots kept in time order for trace search (libs/kinds/src/span/roots.ts) go with them: same columns, same conditions.
  const spans = tables.find((t) => t.table === KINDS.span.tableDef.name);
  if (spans) tables.push({ ...spans, table: ROOTS_TABLE });
  const errorsTable = KINDS.error.tableDef.name;
  const groups = !kinds.includes('error' as EventKind)
    ? null
    : {
        table: GROUPS_TABLE,
        where: 'project_id = {project:String}',
        params,
        rebuild: d.reason === 'project' ? null : rebuildGroupsStatement(errorsTable, 'project_id = {project:String}'),
      };
  return { tables, groups };
}
