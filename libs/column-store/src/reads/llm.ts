import type { ColumnStore } from '../column-store.ts';
import { rangeOrDefault, type TimeRange } from './time-range.ts';

export interface LlmUsageSummary {
  day: string;
  model: string;
  provider: string;
  service: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
}

/** Usage per day, model, provider and service over de-duplicated rows. */
export async function readLlmUsage(store: ColumnStore, f: { projectId: string; range?: Partial<TimeRange> }): Promise<LlmUsageSummary[]> {
  const range = rangeOrDefault(f.range);
  const rows = await store.query<Record<string, string | number>>(
    `SELECT toString(toDate(timestamp)) AS day, model, provider, service, count() AS calls,
            sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(cost_usd) AS cost_usd,
            quantileExact(0.5)(latency_ms) AS latency_p50_ms, quantileExact(0.95)(latency_ms) AS latency_p95_ms
       FROM llm_usage FINAL
      WHERE project_id = {project:String}
        AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
      GROUP BY day, model, provider, service
      ORDER BY day, model, provider, service
      LIMIT 10000`,
    { project: f.projectId, from: range.fromMs, to: range.toMs },
  );
  return rows.map((r) => ({
    day: String(r.day),
    model: String(r.model),
    provider: String(r.provider),
    service: String(r.service),
    calls: Number(r.calls),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cost_usd: Number(r.cost_usd),
    latency_p50_ms: Number(r.latency_p50_ms),
    latency_p95_ms: Number(r.latency_p95_ms),
  }));
}
