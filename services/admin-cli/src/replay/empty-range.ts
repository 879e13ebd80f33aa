import type { ColumnStore } from '@devtrail/column-store';
import type { Config, Logger } from '@devtrail/config';
import { EVENT_KINDS, GROUPS_TABLE, kindByName, kindOf, rebuildGroupsStatement, type EventKind } from '@devtrail/kinds';
import { openAdapters } from '@devtrail/runtime';
import { parsePoint, ReplayError } from './range.ts';
import type { ReplayIo } from './replay-command.ts';

// `devtrail empty <kind> --from T --to T`: deletes a kind's rows received in [from, to), every
// project's, so a replay of that range rewrites them from Kafka exactly (docs/topics.md,
// "Replay"). Rows are matched on the time devtrail received them (the table's ttlColumn:
// received_at for logs and spans, timestamp for errors and LLM usage, which is their receive
// time), the time replay's range is read by. Error groups follow: the groups of every project
// that had errors in the range are rebuilt from the errors left, with the groups view's own
// query. Not a deletion (docs/data.md): nothing is published, and replay writes it all back.

export const EMPTY_USAGE = `  empty <kind> --from T [--to T] [--dry-run]
                                           delete the kind's rows received in [T, T) (every project's) before a
                                           replay of that range; error groups are rebuilt. T: ISO 8601 time or
                                           90m, 6h, 7d ago; --to defaults to now`;

export interface EmptyResult {
  kind: EventKind;
  table: string;
  column: string;
  from: string;
  to: string;
  dry_run: boolean;
  /** Rows in the range before, as reads count them (what was, or would be, deleted). */
  rows: number;
  /** Projects whose error groups were rebuilt (errors only). */
  groups_rebuilt: number;
}

function take(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  if (value === undefined || value.startsWith('--')) throw new ReplayError(`${name} needs a value`);
  return value;
}

const instant = (text: string, flag: string): number => {
  const p = parsePoint(text);
  if (p.at !== 'time') throw new ReplayError(`${flag} takes a time here (ISO 8601, or 90m, 6h, 7d ago), not ${text}`);
  return p.ms;
};

export async function emptyRange(store: ColumnStore, kind: EventKind, fromMs: number, toMs: number, dryRun: boolean): Promise<EmptyResult> {
  const def = kindOf(kind).tableDef;
  const where = `${def.ttlColumn} >= fromUnixTimestamp64Milli({from:Int64}) AND ${def.ttlColumn} < fromUnixTimestamp64Milli({to:Int64})`;
  const params = { from: fromMs, to: toMs };
  // FINAL: rows as reads count them (a replayed row and its first copy are one until a merge).
  const [{ n }] = await store.query<{ n: string | number }>(`SELECT count() AS n FROM ${def.name} FINAL WHERE ${where}`, params);
  const result: EmptyResult = {
    kind,
    table: def.name,
    column: def.ttlColumn,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    dry_run: dryRun,
    rows: Number(n),
    groups_rebuilt: 0,
  };
  if (dryRun || result.rows === 0) return result;
  const projects = kind === 'error' ? (await store.query<{ p: string }>(`SELECT DISTINCT project_id AS p FROM ${def.name} WHERE ${where}`, params)).map((r) => r.p) : [];
  await store.command(`DELETE FROM ${def.name} WHERE ${where}`, params);
  for (const project of projects) {
    await store.command(`DELETE FROM ${GROUPS_TABLE} WHERE project_id = {project:String}`, { project });
    await store.command(rebuildGroupsStatement(def.name, 'project_id = {project:String}'), { project });
    result.groups_rebuilt++;
  }
  return result;
}

export async function runEmpty(config: Config, logger: Logger, argv: string[], io: ReplayIo): Promise<void> {
  const args = [...argv];
  const dryRun = args.includes('--dry-run');
  if (dryRun) args.splice(args.indexOf('--dry-run'), 1);
  const fromText = take(args, '--from');
  const toText = take(args, '--to');
  const [name, ...extra] = args;
  const kind = (EVENT_KINDS as string[]).includes(name) ? (name as EventKind) : kindByName(name ?? '');
  if (!kind || !fromText || extra.length > 0) throw new ReplayError(`usage:\n${EMPTY_USAGE}`);
  const from = instant(fromText, '--from');
  const to = toText ? instant(toText, '--to') : Date.now();
  if (from >= to) throw new ReplayError('--from must be before --to');
  if (config.mode !== 'distributed') throw new ReplayError("empty works on the distributed mode's ClickHouse (DEVTRAIL_MODE=distributed), as replay does");
  const adapters = await openAdapters(config, logger);
  try {
    const r = await emptyRange(adapters.columnStore, kind, from, to, dryRun);
    const groups = r.kind === 'error' && !r.dry_run ? `; error groups of ${r.groups_rebuilt} projects rebuilt` : '';
    io.out(
      io.json
        ? JSON.stringify(r, null, 2)
        : `${r.dry_run ? 'dry run: would delete' : 'deleted'} ${r.rows} rows of ${r.table} received from ${r.from} to ${r.to} (${r.column})${groups}`,
    );
  } finally {
    await adapters.close();
  }
}
