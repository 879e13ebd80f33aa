import { loadLlmPrices, priceOf, type LlmPriceTable } from '@devtrail/config';
import type { PriceOf } from '@devtrail/kinds';

// The price table behind every LLM cost the reads answer (the effective cost, libs/kinds
// llm/cost.ts, docs/otlp.md#llm-cost): the deployment's, handed down from config.

let fallback: LlmPriceTable | undefined;
/** The repository's table, for callers that were not handed the deployment's (tests, tools). */
export const defaultPrices = (): LlmPriceTable => (fallback ??= loadLlmPrices());

/** The table's lookup as the LLM reads take it. */
export const pricesOf =
  (table: LlmPriceTable): PriceOf =>
  (model) =>
    priceOf(table, model);
