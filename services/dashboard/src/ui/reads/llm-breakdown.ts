import type { ColumnStore } from '@devtrail/column-store';
import { bucketExpr, type Buckets } from './buckets.ts';

// LLM usage for the UI: cost and tokens per bucket and model (the chart), and one row
// per model and provider over the whole range (the table; percentiles over the range).

export interface LlmPoint {
  bucket: number;
  model: string;
  calls: number;
  tokens: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface LlmModelRow {
  model: string;
  provider: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
}

const WHERE = `project_id = {project:String}
  AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})`;

export async function readLlmSeries(store: ColumnStore, projectId: string, b: Buckets): Promise<LlmPoint[]> {
  const rows = await store.query<Record<string, string | number>>(
    `SELECT ${bucketExpr('timestamp')} AS bucket, model, count() AS calls,
            sum(input_tokens + output_tokens) AS tokens, sum(input_tokens) AS in_tokens, sum(output_tokens) AS out_tokens, sum(cost_usd) AS cost_usd
       FROM llm_usage FINAL WHERE ${WHERE}
      GROUP BY bucket, model ORDER BY bucket, model LIMIT 20000`,
    { project: projectId, from: b.fromMs, to: b.toMs, step: b.stepMs },
  );
  return rows.map((r) => ({
    bucket: Number(r.bucket),
    model: String(r.model),
    calls: Number(r.calls),
    tokens: Number(r.tokens),
    // Aliased apart from the columns: "tokens" above sums the columns themselves.
    input_tokens: Number(r.in_tokens),
    output_tokens: Number(r.out_tokens),
    cost_usd: Number(r.cost_usd),
  }));
}

export async function readLlmModels(store: ColumnStore, projectId: string, b: Buckets): Promise<LlmModelRow[]> {
  const rows = await store.query<Record<string, string | number>>(
    `SELECT model, provider, count() AS calls, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
            sum(cost_usd) AS cost_usd, quantileExact(0.5)(latency_ms) AS p50, quantileExact(0.95)(latency_ms) AS p95
       FROM llm_usage FINAL WHERE ${WHERE}
      GROUP BY model, provider ORDER BY cost_usd DESC, calls DESC LIMIT 1000`,
    { project: projectId, from: b.fromMs, to: b.toMs },
  );
  return rows.map((r) => ({
    model: String(r.model),
    provider: String(r.provider),
    calls: Number(r.calls),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cost_usd: Number(r.cost_usd),
    latency_p50_ms: Number(r.p50),
    latency_p95_ms: Number(r.p95),
  }));
}
