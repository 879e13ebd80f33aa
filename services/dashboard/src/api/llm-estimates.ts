import { estimateCostUsd, loadLlmPrices, type LlmPriceTable } from '@devtrail/config';

// estimated_cost_usd beside cost_usd: computed at read time from the summed tokens and
// the deployment's price table (libs/config, docs/otlp.md#llm-cost), so a price change
// applies to past usage too and the stored rows stay as the client sent them.

export interface TokenRow {
  model: string;
  input_tokens: number;
  output_tokens: number;
}

/** The rows with estimated_cost_usd (null for a model the table does not price). */
export function withEstimates<T extends TokenRow>(rows: T[], prices: LlmPriceTable): Array<T & { estimated_cost_usd: number | null }> {
  return rows.map((r) => ({ ...r, estimated_cost_usd: estimateCostUsd(prices, r.model, r.input_tokens, r.output_tokens) }));
}

let fallback: LlmPriceTable | undefined;
/** The repository's table, for callers that were not handed the deployment's (tests, tools). */
export const defaultPrices = (): LlmPriceTable => (fallback ??= loadLlmPrices());
