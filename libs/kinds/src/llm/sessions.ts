import { clampLimit, fromChTime, rangeOrDefault, type ColumnStore } from '@devtrail/column-store';
import { llmWhere, scalar, SESSION_SQL, type LlmCallFilter } from './call-filter.ts';
import { EFFECTIVE_COST_SQL, PRICES_WITH, priceParams } from './cost.ts';
import { llm } from './index.ts';

// LLM sessions: the calls that share a session.id (else a gen_ai.conversation.id) in their
// metadata, summed; readLlmCalls with `session` strings one together in order.

export interface LlmSession {
  /** The session.id (else gen_ai.conversation.id) its calls share. */
  session: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  first_at: string;
  last_at: string;
  /** The enduser.id of its first call that carries one. */
  user: string | null;
}

/** Sessions with calls in the range, latest activity first (at most `limit`). */
export async function readLlmSessions(store: ColumnStore, f: LlmCallFilter & { limit?: number }): Promise<LlmSession[]> {
  const range = rangeOrDefault(f.range);
  const { where, params } = llmWhere(f, range);
  Object.assign(params, await priceParams(store, llm.name, f.projectId, range, f.prices));
  const rows = await store.query<Record<string, string | number | null>>(
    `${PRICES_WITH}
     SELECT ${SESSION_SQL} AS m_session, count() AS m_calls, sum(input_tokens) AS m_input_tokens, sum(output_tokens) AS m_output_tokens,
            sum(${EFFECTIVE_COST_SQL}) AS m_cost_usd, min(timestamp) AS m_first_at, max(timestamp) AS m_last_at,
            argMinIf(${scalar('enduser.id')}, timestamp, ${scalar('enduser.id')} != '') AS m_user
       FROM ${llm.name} FINAL WHERE ${where.join(' AND ')} AND ${SESSION_SQL} != ''
      GROUP BY m_session ORDER BY m_last_at DESC, m_session LIMIT {limit:UInt32}`,
    { ...params, limit: clampLimit(f.limit, 50) },
  );
  return rows.map((r) => ({
    session: String(r.m_session),
    calls: Number(r.m_calls),
    input_tokens: Number(r.m_input_tokens),
    output_tokens: Number(r.m_output_tokens),
    cost_usd: Number(r.m_cost_usd),
    first_at: fromChTime(String(r.m_first_at)),
    last_at: fromChTime(String(r.m_last_at)),
    user: r.m_user ? String(r.m_user) : null,
  }));
}
