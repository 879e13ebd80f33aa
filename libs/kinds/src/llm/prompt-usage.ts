import { rangeOrDefault, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import { llmWhere, scalar, type LlmCallFilter } from './call-filter.ts';
import { EFFECTIVE_COST_SQL, ESTIMATE_SQL, PRICES_WITH, priceParams, SENT_SQL } from './cost.ts';
import { llm } from './index.ts';
import { PROMPT_NAME_KEYS, PROMPT_VERSION_KEYS } from './prompt-link.ts';

// The calls linked to versions of one prompt (prompt-link.ts), per version: counts, effective
// cost (cost.ts), tokens and latency over the range, from the llm table itself, so the figures
// equal the calls' own (GET /api/projects/:id/llm-calls with the same metadata filter).

/** The first key's value a call carries ('' when none): a string as it is, a number as its JSON. */
const firstOf = (keys: readonly string[]) => `multiIf(${keys.map((k) => `${scalar(k)} != '', ${scalar(k)}`).join(', ')}, '')`;
/** A call's prompt name as SQL over the llm table's metadata. */
export const PROMPT_NAME_SQL = firstOf(PROMPT_NAME_KEYS);
/** A call's prompt version as text ("3"), '' when it names none. */
export const PROMPT_VERSION_SQL = firstOf(PROMPT_VERSION_KEYS);

export interface PromptVersionUsage {
  version: number;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  /** Effective cost of the calls, USD; estimated_cost_usd is the part of it from the price table. */
  cost_usd: number;
  estimated_cost_usd: number;
  /** cost_usd / calls (0 without calls). */
  cost_per_call_usd: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
}

/** A version without calls in the range. */
export const noUsage = (version: number): PromptVersionUsage => ({
  version,
  calls: 0,
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: 0,
  estimated_cost_usd: 0,
  cost_per_call_usd: 0,
  latency_p50_ms: 0,
  latency_p95_ms: 0,
});

/**
 * The conditions that take the calls linked to `versions` of the prompt (llmWhere's and the
 * prompt's), and `versionSql`, the version a call is linked to as text: for reads that join other
 * tables to these calls (scores by trace id, say) as well as for the usage below.
 */
export function promptCallsWhere(f: LlmCallFilter & { prompt: string; versions: number[] }, range: TimeRange) {
  const { where, params } = llmWhere(f, range);
  where.push(`${PROMPT_NAME_SQL} = {prompt_name:String}`, `${PROMPT_VERSION_SQL} IN {prompt_versions:Array(String)}`);
  return { where, params: { ...params, prompt_name: f.prompt, prompt_versions: f.versions.map(String) }, versionSql: PROMPT_VERSION_SQL };
}

/** Usage of each of `versions` (every one answered, in the order asked). */
export async function readPromptVersionUsage(store: ColumnStore, f: LlmCallFilter & { prompt: string; versions: number[] }): Promise<PromptVersionUsage[]> {
  const range = rangeOrDefault(f.range);
  const { where, params, versionSql } = promptCallsWhere(f, range);
  Object.assign(params, await priceParams(store, llm.name, f.projectId, range, f.prices));
  const rows = await store.query<Record<string, string | number>>(
    `${PRICES_WITH}
     SELECT ${versionSql} AS m_version, count() AS m_calls, sum(input_tokens) AS m_input_tokens, sum(output_tokens) AS m_output_tokens,
            sum(${EFFECTIVE_COST_SQL}) AS m_cost_usd, sumIf(${ESTIMATE_SQL}, NOT (${SENT_SQL})) AS m_estimated_cost_usd,
            quantileExact(0.5)(latency_ms) AS m_latency_p50_ms, quantileExact(0.95)(latency_ms) AS m_latency_p95_ms
       FROM ${llm.name} FINAL
      WHERE ${where.join(' AND ')}
      GROUP BY m_version`,
    params,
  );
  const byVersion = new Map(rows.map((r) => [String(r.m_version), r]));
  return f.versions.map((version) => {
    const r = byVersion.get(String(version));
    if (!r) return noUsage(version);
    const calls = Number(r.m_calls);
    const cost = Number(r.m_cost_usd);
    return {
      version,
      calls,
      input_tokens: Number(r.m_input_tokens),
      output_tokens: Number(r.m_output_tokens),
      cost_usd: cost,
      estimated_cost_usd: Number(r.m_estimated_cost_usd),
      cost_per_call_usd: calls > 0 ? cost / calls : 0,
      latency_p50_ms: Number(r.m_latency_p50_ms),
      latency_p95_ms: Number(r.m_latency_p95_ms),
    };
  });
}
