import type { ColumnStore, TimeRange } from '@devtrail/column-store';

// One cost for every LLM figure (docs/otlp.md#llm-cost): the effective cost of a call is the
// cost the client sent (cost_usd not 0, a credit included), else the price table's estimate
// from its tokens, else 0 (a model the table does not price). Computed at read time, so a
// price change applies to past calls too and the stored rows stay as sent.
//
// The table's lookup (exact name, else the longest entry the name extends with "-", after a
// routing prefix) is libs/config's priceOf, run here once per model name of the range, not
// per row: the names and their prices go to the query as parameters, where transform() reads
// them off the LowCardinality column's dictionary. The llm_cost alert runs the same priceOf
// per call (libs/config effectiveCostUsd), so both agree.

/** A tier: the prices of a call with more input tokens than `above_input_tokens`. */
export interface PriceTier {
  above_input_tokens: number;
  input: number;
  output: number;
  cached_input?: number;
}
/** A model's price, USD per million tokens (cached input: tokens read from the prompt cache); undefined when the table does not price it. */
export type PriceOf = (model: string) => { input: number; output: number; cached_input?: number; tiers?: PriceTier[] } | undefined;

/** Model names priced per query: the range's most called ones (a bound on the query's parameters). */
export const MAX_PRICED_MODELS = 1000;

/** The query parameters PRICES_WITH reads: per priced model its base prices, and its tiers' in arrays of arrays. */
export interface PriceParams {
  price_models: string[];
  price_index: number[];
  price_in: number[];
  price_out: number[];
  price_cached: number[];
  tier_above: number[][];
  tier_in: number[][];
  tier_out: number[][];
  tier_cached: number[][];
}

/** The prices of the project's model names in the range (none without a table). */
export async function priceParams(store: ColumnStore, table: string, projectId: string, range: TimeRange, priceOf?: PriceOf): Promise<PriceParams> {
  const out: PriceParams = {
    price_models: [],
    price_index: [],
    price_in: [],
    price_out: [],
    price_cached: [],
    tier_above: [],
    tier_in: [],
    tier_out: [],
    tier_cached: [],
  };
  if (!priceOf) return out;
  const rows = await store.query<{ model: string }>(
    `SELECT model FROM ${table} WHERE project_id = {project:String}
        AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
      GROUP BY model ORDER BY count() DESC LIMIT {limit:UInt32}`,
    { project: projectId, from: range.fromMs, to: range.toMs, limit: MAX_PRICED_MODELS },
  );
  for (const { model } of rows) {
    const p = priceOf(model);
    if (!p) continue;
    const tiers = p.tiers ?? [];
    out.price_models.push(model);
    out.price_index.push(out.price_models.length);
    out.price_in.push(p.input);
    out.price_out.push(p.output);
    out.price_cached.push(p.cached_input ?? p.input);
    out.tier_above.push(tiers.map((t) => t.above_input_tokens));
    out.tier_in.push(tiers.map((t) => t.input));
    out.tier_out.push(tiers.map((t) => t.output));
    out.tier_cached.push(tiers.map((t) => t.cached_input ?? t.input));
  }
  return out;
}

/**
 * Each row's prices (per million tokens; _price_in -1 when unpriced) and cached input tokens;
 * prepend to SELECT, with priceParams' parameters. A row's model is found once (transform over
 * the dictionary), then its tier: how many tier thresholds its input tokens pass.
 */
export const PRICES_WITH = `WITH transform(model, {price_models:Array(String)}, {price_index:Array(UInt32)}, toUInt32(0)) AS _pi,
  arrayCount(t -> input_tokens > t, arrayElement({tier_above:Array(Array(Float64))}, _pi)) AS _tier,
  if(_pi = 0, toFloat64(-1), if(_tier = 0, arrayElement({price_in:Array(Float64)}, _pi), arrayElement(arrayElement({tier_in:Array(Array(Float64))}, _pi), _tier))) AS _price_in,
  if(_tier = 0, arrayElement({price_out:Array(Float64)}, _pi), arrayElement(arrayElement({tier_out:Array(Array(Float64))}, _pi), _tier)) AS _price_out,
  if(_tier = 0, arrayElement({price_cached:Array(Float64)}, _pi), arrayElement(arrayElement({tier_cached:Array(Array(Float64))}, _pi), _tier)) AS _price_cached,
  least(cached_input_tokens, input_tokens) AS _cached`;

/** Whether the client sent the call's cost. */
export const SENT_SQL = 'cost_usd != 0';
/** Whether the table prices the call's model. */
export const PRICED_SQL = '_price_in >= 0';
/** The table's estimate of a call (0 when unpriced): the same terms in the same order as libs/config's estimateCostUsd, rounded as it rounds. */
export const ESTIMATE_SQL = `if(${PRICED_SQL}, round(((input_tokens - _cached) * _price_in + _cached * _price_cached + output_tokens * _price_out) / 1000000, 8), 0)`;
/** The call's effective cost. */
export const EFFECTIVE_COST_SQL = `if(${SENT_SQL}, cost_usd, ${ESTIMATE_SQL})`;
/** Which cost a call's effective cost is: 'sent', 'estimated' or 'unpriced'. */
export const COST_SOURCE_SQL = `multiIf(${SENT_SQL}, 'sent', ${PRICED_SQL}, 'estimated', 'unpriced')`;
export type CostSource = 'sent' | 'estimated' | 'unpriced';
export const COST_SOURCES = ['sent', 'estimated', 'unpriced'] as const;
