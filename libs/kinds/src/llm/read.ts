import { bucketExpr, rangeOrDefault, type Buckets, type ColumnStore } from '@devtrail/column-store';
import { llmWhere, SESSION_SQL, type LlmCallFilter } from './call-filter.ts';
import { llm } from './index.ts';
import { EFFECTIVE_COST_SQL, ESTIMATE_SQL, PRICED_SQL, PRICES_WITH, priceParams, SENT_SQL } from './cost.ts';

// LLM usage over de-duplicated rows, broken down as the caller asks: the read API per day,
// model, provider and service; the UI's chart per bucket and model, its table per model
// and provider. Each grouping and each measure is written once below; a new measure is one
// line. Measures are aliased m_<name> so that one measure's SQL can use any column by name.
// cost_usd is the effective cost (cost.ts): sent where sent, else estimated; its two parts and
// the calls of each are measures of their own.

const DIMENSIONS = {
  day: { sql: 'toString(toDate(timestamp))', read: String },
  bucket: { sql: bucketExpr('timestamp'), read: Number },
  model: { sql: 'model', read: String },
  provider: { sql: 'provider', read: String },
  service: { sql: 'service', read: String },
};

const MEASURES = {
  calls: 'count()',
  tokens: 'sum(input_tokens + output_tokens)',
  input_tokens: 'sum(input_tokens)',
  output_tokens: 'sum(output_tokens)',
  cached_input_tokens: 'sum(cached_input_tokens)',
  cost_usd: `sum(${EFFECTIVE_COST_SQL})`,
  sent_cost_usd: `sumIf(cost_usd, ${SENT_SQL})`,
  estimated_cost_usd: `sumIf(${ESTIMATE_SQL}, NOT (${SENT_SQL}))`,
  estimated_calls: `countIf(NOT (${SENT_SQL}) AND ${PRICED_SQL})`,
  unpriced_calls: `countIf(NOT (${SENT_SQL}) AND NOT ${PRICED_SQL})`,
  sessions: `uniqExactIf(${SESSION_SQL}, ${SESSION_SQL} != '')`,
  first_ms: 'toUnixTimestamp64Milli(min(timestamp))',
  last_ms: 'toUnixTimestamp64Milli(max(timestamp))',
  latency_p50_ms: 'quantileExact(0.5)(latency_ms)',
  latency_p95_ms: 'quantileExact(0.95)(latency_ms)',
};

export type LlmDimension = keyof typeof DIMENSIONS;
export type LlmMeasure = keyof typeof MEASURES;
type DimensionValues = { [D in LlmDimension]: ReturnType<(typeof DIMENSIONS)[D]['read']> };
export type LlmUsageRow<D extends LlmDimension, M extends LlmMeasure> = Pick<DimensionValues, D> & Record<M, number>;

/** The read API's breakdown (its defaults). */
const SUMMARY_BY = ['day', 'model', 'provider', 'service'] as const;
export const SUMMARY_MEASURES = [
  'calls',
  'input_tokens',
  'output_tokens',
  'cached_input_tokens',
  'cost_usd',
  'sent_cost_usd',
  'estimated_cost_usd',
  'estimated_calls',
  'unpriced_calls',
  'latency_p50_ms',
  'latency_p95_ms',
] as const;
export type LlmUsageSummary = LlmUsageRow<(typeof SUMMARY_BY)[number], (typeof SUMMARY_MEASURES)[number]>;

/** Which calls (call-filter.ts: the project, its retention, prices, range, model, service, metadata, search, session), grouped and measured as asked. */
export interface LlmUsageQuery<D extends LlmDimension, M extends LlmMeasure> extends LlmCallFilter {
  /** Chart buckets, needed to group by `bucket`; they replace `range`. */
  buckets?: Buckets;
  /** Groupings, in row and (by default) sort order. */
  by?: readonly D[];
  /** Measures, in row order. */
  measures?: readonly M[];
  /** Costliest, then most called, first; else sorted by the groupings. */
  costliestFirst?: boolean;
  limit?: number;
}

export async function readLlmUsage<D extends LlmDimension = (typeof SUMMARY_BY)[number], M extends LlmMeasure = (typeof SUMMARY_MEASURES)[number]>(
  store: ColumnStore,
  q: LlmUsageQuery<D, M>,
): Promise<Array<LlmUsageRow<D, M>>> {
  const by = (q.by ?? SUMMARY_BY) as readonly D[];
  const measures = (q.measures ?? SUMMARY_MEASURES) as readonly M[];
  if (by.includes('bucket' as D) && !q.buckets) throw new Error('grouping LLM usage by bucket needs buckets');
  const range = q.buckets ?? rangeOrDefault(q.range);
  const { where, params } = llmWhere(q, range);
  const rows = await store.query<Record<string, string | number>>(
    `${PRICES_WITH}
     SELECT ${[...by.map((d) => `${DIMENSIONS[d].sql} AS ${d}`), ...measures.map((m) => `${MEASURES[m]} AS m_${m}`)].join(', ')}
       FROM ${llm.name} FINAL
      WHERE ${where.join(' AND ')}
      ${by.length > 0 ? `GROUP BY ${by.join(', ')}` : ''}
      ORDER BY ${q.costliestFirst ? `${MEASURES.cost_usd} DESC, ${MEASURES.calls} DESC` : by.length > 0 ? by.join(', ') : '1'}
      LIMIT {limit:UInt32}`,
    {
      ...params,
      ...(q.buckets && { step: q.buckets.stepMs }),
      limit: q.limit ?? 10_000,
      ...(await priceParams(store, llm.name, q.projectId, range, q.prices)),
    },
  );
  return rows.map((r) => Object.fromEntries([...by.map((d) => [d, DIMENSIONS[d].read(r[d])]), ...measures.map((m) => [m, Number(r[`m_${m}`])])]) as LlmUsageRow<D, M>);
}
