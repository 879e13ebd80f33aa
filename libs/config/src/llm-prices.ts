import { readFileSync } from 'node:fs';
import { z } from 'zod';

// The price table behind estimated_cost_usd: USD per million input and output tokens per
// model, kept as data (../data/llm-prices.json, with its date and source) and overridable
// per deployment with LLM_PRICES_FILE (same format; its models replace or extend these).
// docs/otlp.md#llm-cost says how to update it.

const priceSchema = z.object({
  model: z.string().min(1),
  provider: z.string().optional(),
  input: z.number().min(0),
  output: z.number().min(0),
});

export const priceFileSchema = z.object({
  as_of: z.string().optional(),
  source: z.string().optional(),
  unit: z.literal('USD per million tokens').optional(),
  models: z.array(priceSchema),
});

export type ModelPrice = z.infer<typeof priceSchema>;

export interface LlmPriceTable {
  /** Date of the default table's figures, and of the override when one is given. */
  asOf: string[];
  prices: Map<string, ModelPrice>;
}

const DEFAULT_FILE = new URL('../data/llm-prices.json', import.meta.url);

function readPriceFile(path: string | URL): z.infer<typeof priceFileSchema> {
  const parsed = priceFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${String(path)}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** The default table, with the override file's models on top (by model name, case-insensitive). */
export function loadLlmPrices(overrideFile?: string): LlmPriceTable {
  const files = [readPriceFile(DEFAULT_FILE), ...(overrideFile ? [readPriceFile(overrideFile)] : [])];
  const prices = new Map<string, ModelPrice>();
  for (const f of files) for (const p of f.models) prices.set(p.model.toLowerCase(), p);
  return { asOf: files.map((f) => f.as_of ?? 'undated'), prices };
}

/**
 * The table's price for a model as providers and SDKs name it: exact, else the longest
 * entry it extends with "-" (a dated or versioned name such as gpt-4o-mini-2024-07-18),
 * after dropping a routing prefix ("openai/gpt-4o", "models/gemini-1.5-pro").
 */
export function priceOf(table: LlmPriceTable, model: string): ModelPrice | undefined {
  const name = model.trim().toLowerCase().replace(/^.*\//, '');
  const exact = table.prices.get(name);
  if (exact) return exact;
  let best: ModelPrice | undefined;
  let bestLength = 0;
  for (const [key, price] of table.prices) {
    if (key.length > bestLength && name.startsWith(`${key}-`)) {
      best = price;
      bestLength = key.length;
    }
  }
  return best;
}

/** Estimated USD for token counts, or null when the model is not in the table. */
export function estimateCostUsd(table: LlmPriceTable, model: string, inputTokens: number, outputTokens: number): number | null {
  const p = priceOf(table, model);
  if (!p) return null;
  // Rounded to a millionth of a cent: float noise stays out of the API.
  return Math.round(((inputTokens * p.input + outputTokens * p.output) / 1e6) * 1e8) / 1e8;
}

/** A call's effective cost (docs/otlp.md#llm-cost): as sent when sent (not 0), else the estimate, else 0. libs/kinds llm/cost.ts is the same in SQL. */
export function effectiveCostUsd(table: LlmPriceTable, call: { model: string; cost_usd: number; input_tokens: number; output_tokens: number }): number {
  return call.cost_usd !== 0 ? call.cost_usd : (estimateCostUsd(table, call.model, call.input_tokens, call.output_tokens) ?? 0);
}
