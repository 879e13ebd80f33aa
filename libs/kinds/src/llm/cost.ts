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

/** A model's price, USD per million tokens; undefined when the table does not price it. */
export type PriceOf = (model: string) => { input: number; output: number } | undefined;

/** Model names priced per query: the range's most called ones (a bound on the query's parameters). */
export const MAX_PRICED_MODELS = 1000;

/** The query parameters PRICES_WITH reads. */
export interface PriceParams {
  price_models: string[];
  price_in: number[];
  price_out: number[];
}

/** The prices of the project's model names in the range (none without a table). */
export async function priceParams(store: ColumnStore, table: string, projectId: string, range: TimeRange, priceOf?: PriceOf): Promise<PriceParams> {
  const out: PriceParams = { price_models: [], price_in: [], price_out: [] };
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
    out.price_models.push(model);
    out.price_in.push(p.input);
    out.price_out.push(p.output);
  }
  return out;
}

/** Each row's price (0 when unpriced) and whether it has one; prepend to SELECT, with priceParams' parameters. */
export const PRICES_WITH = `WITH transform(model, {price_models:Array(String)}, {price_in:Array(Float64)}, toFloat64(-1)) AS _price_in,
  transform(model, {price_models:Array(String)}, {price_out:Array(Float64)}, toFloat64(0)) AS _price_out`;

/** Whether the client sent the call's cost. */
export const SENT_SQL = 'cost_usd != 0';
/** Whether the table prices the call's model. */
export const PRICED_SQL = '_price_in >= 0';
/** The table's estimate of a call (0 when unpriced), rounded as libs/config's estimateCostUsd rounds. */
export const ESTIMATE_SQL = `if(${PRICED_SQL}, round((input_tokens * _price_in + output_tokens * _price_out) / 1000000, 8), 0)`;
/** The call's effective cost. */
export const EFFECTIVE_COST_SQL = `if(${SENT_SQL}, cost_usd, ${ESTIMATE_SQL})`;
/** Which cost a call's effective cost is: 'sent', 'estimated' or 'unpriced'. */
export const COST_SOURCE_SQL = `multiIf(${SENT_SQL}, 'sent', ${PRICED_SQL}, 'estimated', 'unpriced')`;
export type CostSource = 'sent' | 'estimated' | 'unpriced';
export const COST_SOURCES = ['sent', 'estimated', 'unpriced'] as const;
