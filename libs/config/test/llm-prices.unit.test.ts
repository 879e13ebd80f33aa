import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, estimateCostUsd, loadConfig, loadLlmPrices, priceOf } from '../src/index.ts';

// The price table behind estimated_cost_usd: the repository's data file, the lookup
// rules, and the per-deployment override (LLM_PRICES_FILE).
const file = JSON.parse(readFileSync(new URL('../data/llm-prices.json', import.meta.url), 'utf8'));

describe('the repository price table', () => {
  it('is dated, sourced, and prices every entry in USD per million tokens', () => {
    expect(file.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(file.source.length).toBeGreaterThan(20);
    expect(file.unit).toBe('USD per million tokens');
    expect(file.models.length).toBeGreaterThan(10);
    expect(new Set(file.models.map((m: any) => m.model.toLowerCase())).size).toBe(file.models.length);
  });

  it('estimates from input and output prices', () => {
    const t = loadLlmPrices();
    const p = file.models.find((m: any) => m.model === 'gpt-4o-mini');
    expect(estimateCostUsd(t, 'gpt-4o-mini', 1_000_000, 2_000_000)).toBeCloseTo(p.input + 2 * p.output, 10);
    expect(estimateCostUsd(t, 'gpt-4o-mini', 0, 0)).toBe(0);
    expect(estimateCostUsd(t, 'my-own-finetune', 10, 10)).toBeNull();
  });

  it('finds dated and prefixed model names by their longest priced base name', () => {
    const t = loadLlmPrices();
    expect(priceOf(t, 'gpt-4o-mini-2024-07-18')?.model).toBe('gpt-4o-mini');
    expect(priceOf(t, 'gpt-4o-2024-08-06')?.model).toBe('gpt-4o');
    expect(priceOf(t, 'openai/GPT-4o')?.model).toBe('gpt-4o');
    expect(priceOf(t, 'claude-3-5-sonnet-20241022')?.model).toBe('claude-3-5-sonnet');
    expect(priceOf(t, 'models/gemini-1.5-pro')?.model).toBe('gemini-1.5-pro');
    expect(priceOf(t, 'gpt-4omega')).toBeUndefined();
  });
});

describe('LLM_PRICES_FILE', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dt-prices-'));

  it('replaces and extends the table for one deployment', () => {
    const f = path.join(dir, 'prices.json');
    writeFileSync(
      f,
      JSON.stringify({
        as_of: '2030-01-01',
        models: [
          { model: 'gpt-4o', input: 1, output: 1 },
          { model: 'in-house-7b', input: 0.01, output: 0.02 },
        ],
      }),
    );
    const c = loadConfig({ LLM_PRICES_FILE: f });
    expect(c.llmPrices.asOf).toEqual([file.as_of, '2030-01-01']);
    expect(estimateCostUsd(c.llmPrices, 'gpt-4o', 1_000_000, 1_000_000)).toBe(2);
    expect(estimateCostUsd(c.llmPrices, 'in-house-7b', 1_000_000, 0)).toBe(0.01);
    expect(priceOf(c.llmPrices, 'gpt-4o-mini')?.input).toBe(file.models.find((m: any) => m.model === 'gpt-4o-mini').input);
  });

  it('refuses a malformed file at startup', () => {
    const f = path.join(dir, 'bad.json');
    writeFileSync(f, JSON.stringify({ models: [{ model: 'x', input: -1, output: 1 }] }));
    expect(() => loadConfig({ LLM_PRICES_FILE: f })).toThrow(ConfigError);
    expect(() => loadConfig({ LLM_PRICES_FILE: path.join(dir, 'missing.json') })).toThrow(/LLM_PRICES_FILE/);
  });
});
