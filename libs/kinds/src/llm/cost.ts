// One cost for every LLM figure (docs/otlp.md#llm-cost): the effective cost of a call is the
// cost the client sent (cost_usd > 0), else the price table's estimate from its tokens, else 0
// (a model the table does not price). Computed at read time, in SQL, from the deployment's
// price table passed as query parameters, so a price change applies to past calls too and
// the stored rows stay as sent. libs/config's effectiveCostUsd is the same rule in JS (the
// llm_cost alert); priceOf there is the same lookup as PRICE_INDEX here.

/** The deployment's price table as the reads take it (libs/config's LlmPriceTable fits). */
export interface LlmPrices {
  /** USD per million tokens, by lower-case model name. */
  prices: ReadonlyMap<string, { input: number; output: number }>;
}

/** The table as query parameters: longest names first, so the first match is priceOf's. */
export function priceParams(table: LlmPrices = { prices: new Map() }): { price_models: string[]; price_in: number[]; price_out: number[] } {
  const entries = [...table.prices.entries()].sort(([a], [b]) => b.length - a.length || (a < b ? -1 : 1));
  return { price_models: entries.map(([m]) => m), price_in: entries.map(([, p]) => p.input), price_out: entries.map(([, p]) => p.output) };
}

/**
 * The price lookup, once per query (prepend to SELECT): the table's parameters and, per row,
 * the model as the table names it (trimmed, lower case, without a routing prefix such as
 * "openai/") and the 1-based index of its price (exact, or the longest entry it extends with
 * "-"; 0 when unpriced). The expressions below use these names.
 */
export const PRICES_WITH = `WITH {price_models:Array(String)} AS _price_models, {price_in:Array(Float64)} AS _price_in, {price_out:Array(Float64)} AS _price_out,
  replaceRegexpOne(lower(trimBoth(model)), '^.*/', '') AS _price_name,
  arrayFirstIndex(k -> (_price_name = k OR startsWith(_price_name, concat(k, '-'))), _price_models) AS _price_index`;

/** Whether the client sent the call's cost. */
export const SENT_SQL = 'cost_usd > 0';
/** The table's estimate of a call (0 when unpriced), rounded as estimateCostUsd rounds. */
export const ESTIMATE_SQL = 'round((input_tokens * _price_in[_price_index] + output_tokens * _price_out[_price_index]) / 1000000, 8)';
/** Whether the table prices the call's model. */
export const PRICED_SQL = '_price_index > 0';
/** The call's effective cost. */
export const EFFECTIVE_COST_SQL = `if(${SENT_SQL}, cost_usd, ${ESTIMATE_SQL})`;
/** Which cost a call's effective cost is: 'sent', 'estimated' or 'unpriced'. */
export const COST_SOURCE_SQL = `multiIf(${SENT_SQL}, 'sent', ${PRICED_SQL}, 'estimated', 'unpriced')`;
export type CostSource = 'sent' | 'estimated' | 'unpriced';
export const COST_SOURCES = ['sent', 'estimated', 'unpriced'] as const;
