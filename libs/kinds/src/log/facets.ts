import type { ColumnStore } from '@devtrail/column-store';
import { logWhere, type LogFilter } from './filter.ts';
import { log } from './index.ts';

// The logs explorer's facets: for the logs a filter matches, the most common services,
// environments, releases and levels (exact counts, one pass with GROUPING SETS), and the most
// common metadata keys with their most common values, read from the newest matching logs
// only (METADATA_SAMPLE): parsing every log's JSON over a long range would cost a scan of
// the whole text, and the most common keys show in any recent sample.

export const FACET_COLUMNS = ['service', 'environment', 'release', 'level'] as const;
export const METADATA_SAMPLE = 10_000;

export interface FacetValue {
  value: string;
  count: number;
}
export interface LogFacets {
  /** Column facets: exact counts over every matching log, most common first. */
  columns: Record<(typeof FACET_COLUMNS)[number], FacetValue[]>;
  /** Metadata keys: how many sampled logs have each, and its most common scalar values. */
  metadata: Array<{ key: string; count: number; numeric: boolean; values: FacetValue[] }>;
  /** How many logs the metadata facets were read from. */
  sampled: number;
}

export async function readLogFacets(store: ColumnStore, f: LogFilter, opts: { values?: number; keys?: number } = {}): Promise<LogFacets> {
  const perFacet = opts.values ?? 10;
  const { where, params } = logWhere(f);
  const filter = where.join(' AND ');
  const [columns, metadata] = await Promise.all([
    store.query<Record<string, string | number>>(
      `SELECT grouping(${FACET_COLUMNS.join(', ')}) AS g, ${FACET_COLUMNS.join(', ')}, count() AS n
         FROM ${log.name} FINAL
        WHERE ${filter}
        GROUP BY GROUPING SETS (${FACET_COLUMNS.map((c) => `(${c})`).join(', ')})
        ORDER BY n DESC
        LIMIT {per:UInt32} BY g`,
      { ...params, per: perFacet },
    ),
    // Scalars only: a string decoded, an integer or boolean as its JSON text; other values count for their key.
    // A key is numeric when every sampled value of it is a number (its facet can be ranges: ranges.ts).
    store.query<{ key: string; value: string; scalar: number; n: string | number; key_n: string | number; num_n: string | number }>(
      `SELECT key, value, scalar, n, key_n, num_n FROM (
         SELECT key, value, scalar, count() AS n, sum(count()) OVER (PARTITION BY key) AS key_n,
                sum(countIf(type IN ('Int64', 'UInt64', 'Double'))) OVER (PARTITION BY key) AS num_n
           FROM (
             SELECT key, JSONType(metadata, key) AS type, type IN ('String', 'Int64', 'UInt64', 'Bool') AS scalar,
                    multiIf(type = 'String', JSONExtractString(metadata, key), scalar, JSONExtractRaw(metadata, key), '') AS value
               FROM (SELECT metadata FROM ${log.name} FINAL WHERE ${filter} ORDER BY timestamp DESC LIMIT {sample:UInt32})
              ARRAY JOIN JSONExtractKeys(metadata) AS key
           )
          GROUP BY key, value, scalar
       )
       ORDER BY key_n DESC, key, scalar DESC, n DESC
       LIMIT {per:UInt32} BY key`,
      { ...params, sample: METADATA_SAMPLE, per: perFacet },
    ),
  ]);
  const out = Object.fromEntries(FACET_COLUMNS.map((c) => [c, [] as FacetValue[]])) as LogFacets['columns'];
  for (const r of columns) {
    // grouping() sets bit i (from the left) for a column outside the row's grouping set.
    const i = FACET_COLUMNS.findIndex((_, j) => ((Number(r.g) >> (FACET_COLUMNS.length - 1 - j)) & 1) === 0);
    if (i >= 0) out[FACET_COLUMNS[i]].push({ value: String(r[FACET_COLUMNS[i]]), count: Number(r.n) });
  }
  const keys = new Map<string, LogFacets['metadata'][number]>();
  for (const r of metadata) {
    let k = keys.get(r.key);
    if (!k) keys.set(r.key, (k = { key: r.key, count: Number(r.key_n), numeric: Number(r.num_n) === Number(r.key_n), values: [] }));
    if (Number(r.scalar) === 1) k.values.push({ value: r.value, count: Number(r.n) });
  }
  const matching = out.level.reduce((sum, v) => sum + v.count, 0);
  return { columns: out, metadata: [...keys.values()].slice(0, opts.keys ?? 12), sampled: Math.min(matching, METADATA_SAMPLE) };
}
