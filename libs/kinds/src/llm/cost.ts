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

/** Tiers a model's price has at most: the query reads this many thresholds, and libs/config's price schema allows no more. */
export const MAX_PRICE_TIERS = 4;
const TIERS = MAX_PRICE_TIERS;
/** A tier threshold no call reaches: a model with fewer tiers has its others at it. */
const NO_TIER = 2 ** 52;

/**
 * The query parameters PRICES_WITH reads. The n priced models are numbered 1..n (price_index);
 * model i's prices at tier t (0: none reached) are price_*[(i-1)*(TIERS+1) + t + 1], one read by
 * index per row; tier k's threshold of each model is tier{k}_above; any_tier says whether any
 * model of the range has a tier (when none has, the query skips the thresholds).
 */
export type PriceParams = { price_models: string[]; any_tier: number } & Record<string, string[] | number[] | number>;

/** The prices of the project's model names in the range (none without a table). */
export async function priceParams(store: ColumnStore, table: string, projectId: string, range: TimeRange, priceOf?: PriceOf): Promise<PriceParams> {
  const models: string[] = [];
  const prices: Record<'in' | 'out' | 'cached', number[]> = { in: [], out: [], cached: [] };
  const above: number[][] = Array.from({ length: TIERS }, () => []);
  if (priceOf) {
    const rows = await store.query<{ model: string }>(
      `SELECT model FROM ${table} WHERE project_id = {project:String}
          AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
        GROUP BY model ORDER BY count() DESC LIMIT {limit:UInt32}`,
      { project: projectId, from: range.fromMs, to: range.toMs, limit: MAX_PRICED_MODELS },
    );
    for (const { model } of rows) {
      const p = priceOf(model);
      if (!p) continue;
      models.push(model);
      const levels = [p, ...(p.tiers ?? [])];
      for (let t = 0; t <= TIERS; t++) {
        const level = levels[t] ?? { input: 0, output: 0 };
        prices.in.push(level.input);
        prices.out.push(level.output);
        prices.cached.push(level.cached_input ?? level.input);
        if (t > 0) above[t - 1].push(p.tiers?.[t - 1]?.above_input_tokens ?? NO_TIER);
      }
    }
  }
  return {
    price_models: models,
    price_index: models.map((_, i) => i + 1),
    price_in: prices.in,
    price_out: prices.out,
    price_cached: prices.cached,
    any_tier: above[0].some((a) => a !== NO_TIER) ? 1 : 0,
    ...Object.fromEntries(above.map((a, k) => [`tier${k + 1}_above`, a])),
  };
}

/** Tier k's threshold of the row's model, off the model column's dictionary. */
const above = (k: number) => `transform(model, {price_models:Array(String)}, {tier${k}_above:Array(Float64)}, toFloat64(${NO_TIER}))`;
const at = (side: string) => `arrayElement({price_${side}:Array(Float64)}, (_pi - 1) * ${TIERS + 1} + _tier + 1)`;

/**
 * Each row's prices (per million tokens; _price_in -1 when unpriced) and cached input tokens;
 * prepend to SELECT, with priceParams' parameters. The model's number among the priced names is
 * found off the model column's dictionary (transform); its tier is how many of its thresholds
 * the row's input tokens pass (folded to 0 when no model of the range has a tier: they cost
 * half the read, docs/benchmarks.md); each price is then one read by index.
 */
export const PRICES_WITH = `WITH transform(model, {price_models:Array(String)}, {price_index:Array(UInt32)}, toUInt32(0)) AS _pi,
  if({any_tier:UInt8} = 0, 0, ${Array.from({ length: TIERS }, (_, i) => `(input_tokens > ${above(i + 1)})`).join(' + ')}) AS _tier,
  if(_pi = 0, toFloat64(-1), ${at('in')}) AS _price_in,
  ${at('out')} AS _price_out,
  ${at('cached')} AS _price_cached,
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
