import { bucketExpr, clampLimit, decodeCursor, encodeCursor, rangeOrDefault, type Buckets, type ColumnStore } from '@devtrail/column-store';
import type { RecordOf } from '../kind.ts';
import { llmWhere, type LlmCallFilter } from './call-filter.ts';
import { COST_SOURCE_SQL, EFFECTIVE_COST_SQL, ESTIMATE_SQL, PRICED_SQL, PRICES_WITH, priceParams, SENT_SQL, type CostSource } from './cost.ts';
import type { LlmEvent } from './event.ts';
import { llm } from './index.ts';
import { scoreSortSql } from '../score/call-scores.ts';

// The LLM page's explorer: calls one by one (with their conversation and metadata, which
// carries the trace id the SDK and the OTLP mapping put there), sorted as asked; usage broken
// down by any metadata key (enduser.id and session.id among them); the metadata keys calls
// carry; latency over time. Which calls: call-filter.ts. Every cost is the effective cost
// (cost.ts). Sessions: sessions.ts.

/** A call as the read API answers it: cost_usd is the effective cost; sent_cost_usd what the client sent (0: none). */
export type LlmCallRecord = RecordOf<LlmEvent> & { sent_cost_usd: number; cost_source: CostSource; estimated_cost_usd: number | null };

/** What calls can be sorted by. */
export const CALL_SORTS = {
  time: 'timestamp',
  cost: EFFECTIVE_COST_SQL,
  tokens: '(input_tokens + output_tokens)',
  latency: 'latency_ms',
  /** The mean of the call's scores named `sortScore` (score/call-scores.ts): only calls that have one. */
  score: '_score_sort',
} as const;
export type LlmCallSort = keyof typeof CALL_SORTS;

/** A page's cursor: the last call's time and id, and its sort value when not sorted by time. */
function decodeSortCursor(cursor: string | undefined, sorted: boolean): { time: string; id: string; value?: number } | null {
  if (!cursor) return null;
  const dot = cursor.indexOf('.'); // base64url has none; the value may
  const [at, value] = dot < 0 ? [cursor, undefined] : [cursor.slice(0, dot), cursor.slice(dot + 1)];
  const c = decodeCursor(at);
  if (!c || !sorted) return c;
  const v = Number(value);
  return value !== undefined && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value) && Number.isFinite(v) ? { ...c, value: v } : null;
}

/** Calls, newest first or by `sort` (`order` desc by default), cursor-paginated. */
export async function readLlmCalls(
  store: ColumnStore,
  f: LlmCallFilter & { cursor?: string; limit?: number; sort?: LlmCallSort; order?: 'asc' | 'desc'; sortScore?: string },
): Promise<{ calls: LlmCallRecord[]; nextCursor: string | null }> {
  const limit = clampLimit(f.limit);
  const sort = f.sort ?? 'time';
  const dir = f.order === 'asc' ? 'ASC' : 'DESC';
  const range = rangeOrDefault(f.range);
  const { where, params } = llmWhere(f, range);
  Object.assign(params, await priceParams(store, llm.name, f.projectId, range, f.prices));
  if (sort === 'score' && !f.sortScore) throw new Error('sorting calls by a score needs its name');
  const byScore = sort === 'score' ? scoreSortSql({ projectId: f.projectId, retentionDays: f.scoreRetentionDays ?? f.retentionDays }, f.sortScore as string) : null;
  if (byScore) {
    where.push(byScore.where);
    Object.assign(params, byScore.params);
  }
  const sorted = sort !== 'time';
  const cursor = decodeSortCursor(f.cursor, sorted);
  if (cursor) {
    const key = sorted ? `(${CALL_SORTS[sort]}, timestamp, event_id)` : '(timestamp, event_id)';
    const at = `toDateTime64({ctime:String}, 3, 'UTC'), toUUID({cid:String})`;
    where.push(`${key} ${dir === 'DESC' ? '<' : '>'} (${sorted ? '{cval:Float64}, ' : ''}${at})`);
    Object.assign(params, { ctime: cursor.time, cid: cursor.id, cval: cursor.value ?? 0 });
  }
  const order = sorted ? `${CALL_SORTS[sort]} ${dir}, timestamp ${dir}, event_id ${dir}` : `timestamp ${dir}, event_id ${dir}`;
  const rows = await store.query<Record<string, unknown>>(
    `${PRICES_WITH}${
      byScore
        ? `,
  ${byScore.with}`
        : ''
    }
     SELECT ${llm.recordColumns.join(', ')}, ${EFFECTIVE_COST_SQL} AS effective_cost_usd, ${COST_SOURCE_SQL} AS cost_source,
            if(${PRICED_SQL}, ${ESTIMATE_SQL}, NULL) AS estimate, ${CALL_SORTS[sort]} AS sort_value
       FROM ${llm.name} FINAL WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT {limit:UInt32}`,
    { ...params, limit: limit + 1 },
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    calls: page.map((r) => {
      const { effective_cost_usd, cost_source, estimate, sort_value: _, ...rest } = r;
      const rec = llm.toRecord(rest) as RecordOf<LlmEvent>;
      return {
        ...rec,
        cost_usd: Number(effective_cost_usd),
        sent_cost_usd: rec.cost_usd,
        cost_source: cost_source as CostSource,
        estimated_cost_usd: estimate === null ? null : Number(estimate),
      };
    }),
    nextCursor:
      rows.length > limit && last ? encodeCursor(last.timestamp as string, last.event_id as string) + (sorted ? `.${String(Number(last.sort_value))}` : '') : null,
  };
}

export interface LlmMetadataRow {
  /** The key's value (a string as it is, another scalar as its JSON text); null for calls without the key. */
  value: string | null;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  /** Effective cost; estimated_cost_usd is the part of it from the price table. */
  cost_usd: number;
  estimated_cost_usd: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
}

/** What a breakdown's rows can be sorted by (largest first). */
export const BREAKDOWN_SORTS = {
  calls: 'm_calls',
  cost: 'm_cost_usd',
  tokens: '(m_input_tokens + m_output_tokens)',
  latency: 'm_latency_p95_ms',
} as const;
export type LlmBreakdownSort = keyof typeof BREAKDOWN_SORTS;

/** Usage per value of one metadata key, most called first or by `sort` (at most `limit` values). */
export async function readLlmByMetadata(store: ColumnStore, f: LlmCallFilter & { key: string; limit?: number; sort?: LlmBreakdownSort }): Promise<LlmMetadataRow[]> {
  const range = rangeOrDefault(f.range);
  const { where, params } = llmWhere(f, range);
  Object.assign(params, await priceParams(store, llm.name, f.projectId, range, f.prices));
  const rows = await store.query<Record<string, string | number | null>>(
    `${PRICES_WITH}
     SELECT if(JSONHas(metadata, {key:String}),
               if(JSONType(metadata, {key:String}) = 'String', JSONExtractString(metadata, {key:String}), JSONExtractRaw(metadata, {key:String})),
               NULL) AS m_value,
            count() AS m_calls, sum(input_tokens) AS m_input_tokens, sum(output_tokens) AS m_output_tokens,
            sum(${EFFECTIVE_COST_SQL}) AS m_cost_usd, sumIf(${ESTIMATE_SQL}, NOT (${SENT_SQL})) AS m_estimated_cost_usd,
            quantileExact(0.5)(latency_ms) AS m_latency_p50_ms, quantileExact(0.95)(latency_ms) AS m_latency_p95_ms
       FROM ${llm.name} FINAL WHERE ${where.join(' AND ')}
      GROUP BY m_value ORDER BY ${BREAKDOWN_SORTS[f.sort ?? 'calls']} DESC, m_calls DESC, m_value LIMIT {limit:UInt32}`,
    { ...params, key: f.key, limit: clampLimit(f.limit, 50) },
  );
  return rows.map((r) => ({
    value: r.m_value === null ? null : String(r.m_value),
    calls: Number(r.m_calls),
    input_tokens: Number(r.m_input_tokens),
    output_tokens: Number(r.m_output_tokens),
    cost_usd: Number(r.m_cost_usd),
    estimated_cost_usd: Number(r.m_estimated_cost_usd),
    latency_p50_ms: Number(r.m_latency_p50_ms),
    latency_p95_ms: Number(r.m_latency_p95_ms),
  }));
}

/** The metadata keys of the newest calls (at most 10,000), most common first. */
export async function readLlmMetadataKeys(store: ColumnStore, f: LlmCallFilter): Promise<Array<{ key: string; calls: number }>> {
  const { where, params } = llmWhere(f, rangeOrDefault(f.range));
  const rows = await store.query<{ key: string; calls: string | number }>(
    `SELECT key, count() AS calls FROM (SELECT metadata FROM ${llm.name} FINAL WHERE ${where.join(' AND ')} ORDER BY timestamp DESC LIMIT 10000)
      ARRAY JOIN JSONExtractKeys(metadata) AS key GROUP BY key ORDER BY calls DESC, key LIMIT 50`,
    params,
  );
  return rows.map((r) => ({ key: r.key, calls: Number(r.calls) }));
}

/** Latency percentiles per bucket (0 where a bucket has no call). */
export async function readLlmLatency(store: ColumnStore, f: LlmCallFilter, buckets: Buckets): Promise<{ p50: number[]; p95: number[]; calls: number[] }> {
  const { where, params } = llmWhere({ ...f, range: buckets }, buckets);
  const rows = await store.query<{ b: string | number; p50: number; p95: number; n: string | number }>(
    `SELECT ${bucketExpr('timestamp')} AS b, quantileExact(0.5)(latency_ms) AS p50, quantileExact(0.95)(latency_ms) AS p95, count() AS n
       FROM ${llm.name} FINAL WHERE ${where.join(' AND ')} GROUP BY b`,
    { ...params, step: buckets.stepMs },
  );
  const out = { p50: new Array<number>(buckets.count).fill(0), p95: new Array<number>(buckets.count).fill(0), calls: new Array<number>(buckets.count).fill(0) };
  for (const r of rows) {
    const i = Number(r.b);
    if (i < 0 || i >= buckets.count) continue;
    out.p50[i] = Number(r.p50);
    out.p95[i] = Number(r.p95);
    out.calls[i] = Number(r.n);
  }
  return out;
}
