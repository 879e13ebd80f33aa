import type { ColumnStore } from '@devtrail/column-store';
import { logWhere, type LogFilter } from './filter.ts';
import { log } from './index.ts';
import { searchSql } from '../search/sql.ts';
import type { SearchNode } from '../search/syntax.ts';
import { LOG_SEARCH } from './search.ts';

// A numeric metadata key's facet as ranges (docs/dashboard.md, "Logs explorer"): the key's
// smallest and largest number over every matching log split at round numbers, then each range
// counted exactly with the very condition the search `metadata.<key>:>a metadata.<key>:<=b`
// compiles to (../search/sql.ts), so a range's count is the number of logs its click shows. The
// first and last ranges are open-ended, so every number falls in one.

export const RANGE_BUCKETS = { min: 2, max: 10, default: 5 } as const;

/** Values above `from` (none: no lower bound) up to and including `to` (none: no upper bound). */
export interface NumericRange {
  from: number | null;
  to: number | null;
  count: number;
}
export interface LogRanges {
  key: string;
  /** The smallest and largest number the key holds in the matching logs (null: none holds a number). */
  min: number | null;
  max: number | null;
  ranges: NumericRange[];
}

/** A round step (1, 2 or 5 times a power of ten) at least `raw`; at least 1 when every value is an integer. */
function roundStep(raw: number, integers: boolean): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  return integers ? Math.max(1, step) : step;
}

/** The inner edges splitting [min, max] into at most `buckets` ranges at round numbers, each a short decimal. */
export function rangeEdges(min: number, max: number, buckets: number, integers: boolean): number[] {
  if (!(max > min)) return [];
  const step = roundStep((max - min) / buckets, integers);
  if (!(step > 0) || !Number.isFinite(step)) return [];
  const edges: number[] = [];
  for (let i = Math.floor(min / step) + 1; edges.length < buckets - 1; i++) {
    // 15 significant digits: 0.6000000000000001 is written 0.6.
    const e = Number((i * step).toPrecision(15));
    if (e >= max) break;
    if (e > (edges.at(-1) ?? min)) edges.push(e);
  }
  return edges;
}

/** The ranges the edges make: (-∞, e1], (e1, e2], …, (en, ∞); one range (-∞, max] without edges. */
export function rangesOf(edges: number[], max: number): Array<{ from: number | null; to: number | null }> {
  if (edges.length === 0) return [{ from: null, to: max }];
  return [null, ...edges].map((from, i) => ({ from, to: i < edges.length ? edges[i] : null }));
}

/** The search that keeps one range's logs, as a tree (what the explorer writes as text). */
export function rangeSearch(key: string, r: { from: number | null; to: number | null }): SearchNode {
  const term = (op: '>' | '<=', n: number): SearchNode => ({ type: 'field', field: 'metadata', key, op, value: String(n), wildcard: false });
  const children = [...(r.from !== null ? [term('>', r.from)] : []), ...(r.to !== null ? [term('<=', r.to)] : [])];
  return children.length === 1 ? children[0] : { type: 'and', children };
}

export async function readLogRanges(store: ColumnStore, f: LogFilter, key: string, buckets: number = RANGE_BUCKETS.default): Promise<LogRanges> {
  const { where, params } = logWhere(f);
  const filter = where.join(' AND ');
  const value = 'JSONExtractFloat(metadata, {rk:String})';
  const [bounds] = await store.query<{ lo: number | null; hi: number | null; n: string | number; ints: string | number }>(
    `SELECT min(v) AS lo, max(v) AS hi, count() AS n, countIf(t != 'Double') AS ints
       FROM (SELECT ${value} AS v, JSONType(metadata, {rk:String}) AS t FROM ${log.name} FINAL
              WHERE ${filter} AND t IN ('Int64', 'UInt64', 'Double'))`,
    { ...params, rk: key },
  );
  const n = Number(bounds?.n ?? 0);
  if (n === 0 || bounds?.lo === null || bounds?.hi === null) return { key, min: null, max: null, ranges: [] };
  const [min, max] = [Number(bounds.lo), Number(bounds.hi)];
  const spans = rangesOf(rangeEdges(min, max, buckets, Number(bounds.ints) === n), max);
  const counts = spans.map((r, i) => searchSql(rangeSearch(key, r), LOG_SEARCH, `r${i}_`));
  const [row] = await store.query<Record<string, string | number>>(
    `SELECT ${counts.map((c, i) => `countIf(${c.where}) AS c${i}`).join(', ')} FROM ${log.name} FINAL WHERE ${filter}`,
    Object.assign({ ...params }, ...counts.map((c) => c.params)),
  );
  return { key, min, max, ranges: spans.map((r, i) => ({ ...r, count: Number(row?.[`c${i}`] ?? 0) })) };
}
