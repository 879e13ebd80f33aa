import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { MAX_PRICE_TIERS } from '@devtrail/kinds';

// The price table behind estimated_cost_usd: USD per million input, cached input and output
// tokens per model, with prices past a prompt size (tiers), kept as data
// (../data/llm-prices.json, with its date and source), overridable per deployment with
// LLM_PRICES_FILE (same format; its models replace or extend these) and edited by the
// operator through the API (withEdits, kept current by each process that prices calls).
// docs/otlp.md#llm-cost says how.

/** Highest price per million tokens a table takes (a typo of 1e9 would make every figure noise). */
export const MAX_PRICE_PER_MILLION = 100_000;
export const MAX_MODEL_NAME = 200;

const perMillion = z.number().min(0).max(MAX_PRICE_PER_MILLION);
const tierSchema = z.object({
  /** The tier's prices apply to a call with more input tokens than this. */
  above_input_tokens: z.number().int().min(1).max(1e9),
  input: perMillion,
  output: perMillion,
  cached_input: perMillion.optional(),
});
/** One model's prices, as the data file, LLM_PRICES_FILE and the API take them. */
export const priceSchema = z.object({
  model: z.string().trim().min(1).max(MAX_MODEL_NAME),
  provider: z.string().max(MAX_MODEL_NAME).optional(),
  input: perMillion,
  output: perMillion,
  /** Input tokens read from the provider's prompt cache; absent: the input price. */
  cached_input: perMillion.optional(),
  tiers: z
    .array(tierSchema)
    .max(MAX_PRICE_TIERS)
    .refine((t) => t.every((x, i) => i === 0 || x.above_input_tokens > t[i - 1].above_input_tokens), 'tiers in increasing above_input_tokens')
    .optional(),
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
  /** The prices in force: the files', then the operator's edits over them (by model name, lower case). */
  prices: Map<string, ModelPrice>;
  /** The files' prices alone, under the edits. */
  files: Map<string, ModelPrice>;
  /** The models the operator's edits price. */
  edited: Set<string>;
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
  return { asOf: files.map((f) => f.as_of ?? 'undated'), prices, files: new Map(prices), edited: new Set() };
}

/** How often each process that prices calls reads the operator's edits made elsewhere. */
export const PRICE_EDITS_REFRESH_MS = 15_000;

/**
 * Puts the operator's edits in force over the files' prices, in place: every holder of the
 * table (the reads, the llm_cost rule) prices with them from its next call on. An edit that is
 * not a valid price (none should be: the API checks them) is left out.
 */
export function withEdits(table: LlmPriceTable, edits: Array<{ price: unknown }>): void {
  const valid = edits.flatMap((e) => {
    const p = priceSchema.safeParse(e.price);
    return p.success ? [p.data] : [];
  });
  const next = new Map(table.files);
  for (const p of valid) next.set(p.model.toLowerCase(), p);
  table.prices.clear();
  for (const [k, v] of next) table.prices.set(k, v);
  table.edited.clear();
  for (const p of valid) table.edited.add(p.model.toLowerCase());
}

/** The prices a call pays per million tokens: its model's, or the tier its input tokens reach. */
export function callPrices(p: ModelPrice, inputTokens: number): { input: number; output: number; cached_input: number } {
  let tier: { input: number; output: number; cached_input?: number } = p;
  for (const t of p.tiers ?? []) if (inputTokens > t.above_input_tokens) tier = t;
  return { input: tier.input, output: tier.output, cached_input: tier.cached_input ?? tier.input };
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

/**
 * Estimated USD for token counts, or null when the model is not in the table. Cached input
 * tokens are part of the input tokens (as OpenTelemetry counts them), priced at the cached price.
 */
export function estimateCostUsd(table: LlmPriceTable, model: string, inputTokens: number, outputTokens: number, cachedInputTokens = 0): number | null {
  const p = priceOf(table, model);
  if (!p) return null;
  const c = callPrices(p, inputTokens);
  const cached = Math.min(cachedInputTokens, inputTokens);
  // The same terms in the same order as libs/kinds llm/cost.ts, rounded to a millionth of a
  // cent as ClickHouse's round(x, 8) rounds: float noise stays out of the API.
  return roundHalfEven((((inputTokens - cached) * c.input + cached * c.cached_input + outputTokens * c.output) / 1e6) * 1e8) / 1e8;
}

/** To the nearest integer, a tie to the even one, as ClickHouse rounds a Float64 (19,995 tokens at $0.015 are $0.00029992). */
function roundHalfEven(v: number): number {
  const floor = Math.floor(v);
  const rest = v - floor;
  if (rest !== 0.5) return rest < 0.5 ? floor : floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** A call's effective cost (docs/otlp.md#llm-cost): as sent when sent (not 0), else the estimate, else 0. libs/kinds llm/cost.ts is the same in SQL. */
export function effectiveCostUsd(
  table: LlmPriceTable,
  call: { model: string; cost_usd: number; input_tokens: number; output_tokens: number; cached_input_tokens?: number },
): number {
  return call.cost_usd !== 0 ? call.cost_usd : (estimateCostUsd(table, call.model, call.input_tokens, call.output_tokens, call.cached_input_tokens ?? 0) ?? 0);
}
