import { bucketExpr, clampLimit, type Buckets, type ColumnStore } from '@devtrail/column-store';
import type { RecordOf } from '../kind.ts';
import type { ScoreEvent } from './event.ts';
import { score } from './index.ts';
import { latestScores, type ScoreFilter } from './latest.ts';

// Scores one by one, a summary per name, and each name's average over time (the LLM page's
// chart). docs/api.md, "Scores".

export type ScoreRecord = RecordOf<ScoreEvent>;

/** The latest version of each score, newest first (at most `limit`, default 100). */
export async function readScores(store: ColumnStore, f: ScoreFilter & { limit?: number }): Promise<{ scores: ScoreRecord[] }> {
  const s = latestScores(f);
  const rows = await store.query<Record<string, unknown>>(`SELECT ${score.recordColumns.join(', ')} FROM ${s.sql} ORDER BY timestamp DESC, id LIMIT {limit:UInt32}`, {
    ...s.params,
    limit: clampLimit(f.limit),
  });
  return { scores: rows.map((r) => score.toRecord(r) as ScoreRecord) };
}

export interface ScoreSummary {
  name: string;
  /** The type of its latest score (a name keeps one type, as clients use it). */
  data_type: ScoreEvent['data_type'];
  count: number;
  /** The mean of its values (a boolean's: the share true); null for a categorical score. */
  average: number | null;
  /** Categorical and boolean scores: each value's count, most common first (at most 20). */
  distribution: Array<{ value: string; count: number }>;
}

/** Per score name (at most 100, most given first): count, average and, for labels, their distribution. */
export async function readScoreSummary(store: ColumnStore, f: ScoreFilter): Promise<ScoreSummary[]> {
  const s = latestScores(f);
  const [rows, labels] = await Promise.all([
    store.query<Record<string, unknown>>(
      `SELECT name, argMax(data_type, timestamp) AS type, count() AS n, avgIf(value, data_type != 'categorical') AS average,
              countIf(data_type != 'categorical') AS numbers
         FROM ${s.sql} GROUP BY name ORDER BY n DESC, name LIMIT 100`,
      s.params,
    ),
    store.query<{ name: string; label: string; n: string | number }>(
      `SELECT name, label, count() AS n FROM ${s.sql} WHERE data_type != 'numeric' GROUP BY name, label ORDER BY n DESC, label LIMIT 20 BY name`,
      s.params,
    ),
  ]);
  const distribution = new Map<string, ScoreSummary['distribution']>();
  for (const l of labels) distribution.set(l.name, [...(distribution.get(l.name) ?? []), { value: l.label, count: Number(l.n) }]);
  return rows.map((r) => ({
    name: String(r.name),
    data_type: r.type as ScoreEvent['data_type'],
    count: Number(r.n),
    average: Number(r.numbers) > 0 ? Number(r.average) : null,
    distribution: distribution.get(String(r.name)) ?? [],
  }));
}

export interface ScoreSeries {
  name: string;
  /** The mean per bucket (null: no score in it). */
  average: Array<number | null>;
  count: number[];
}

/** Each numeric and boolean score name's average per bucket (at most 20 names, most given first). */
export async function readScoreSeries(store: ColumnStore, f: ScoreFilter, buckets: Buckets): Promise<ScoreSeries[]> {
  const s = latestScores({ ...f, range: buckets }, ["data_type != 'categorical'"]);
  const rows = await store.query<{ name: string; b: string | number; average: number; n: string | number }>(
    `SELECT name, ${bucketExpr('timestamp')} AS b, avg(value) AS average, count() AS n FROM ${s.sql}
      WHERE name IN (SELECT name FROM ${s.sql} GROUP BY name ORDER BY count() DESC, name LIMIT 20)
      GROUP BY name, b`,
    { ...s.params, from: buckets.fromMs, step: buckets.stepMs },
  );
  const byName = new Map<string, ScoreSeries>();
  for (const r of rows) {
    let series = byName.get(r.name);
    if (!series) byName.set(r.name, (series = { name: r.name, average: new Array(buckets.count).fill(null), count: new Array(buckets.count).fill(0) }));
    const i = Number(r.b);
    if (i < 0 || i >= buckets.count) continue;
    series.average[i] = Number(r.average);
    series.count[i] = Number(r.n);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
