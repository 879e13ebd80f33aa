import { priceOf, type LlmPriceTable } from '@devtrail/config';
import type { PriceOf } from '@devtrail/kinds';

// The price table behind every LLM cost the reads answer (the effective cost, libs/kinds
// llm/cost.ts, docs/otlp.md#llm-cost): the deployment's, handed down from config, with the
// operator's edits kept current on it (llm-prices/).

/** The table's lookup as the LLM reads take it. */
export const pricesOf =
  (table: LlmPriceTable): PriceOf =>
  (model) =>
    priceOf(table, model);
