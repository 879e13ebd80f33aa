// A score as POST /ingest/scores takes it (docs/api.md), cut to the receiver's bounds
// (limits.ts) so that no call of score() makes a request the receiver refuses.
import { MAX_SCORE_COMMENT, MAX_SCORE_ID, MAX_SCORE_LABEL, MAX_SCORE_NAME } from './limits.js';
import type { ScoreInput } from './types.js';

/** The name of a user's thumbs up or down (userFeedback). */
export const USER_FEEDBACK = 'user_feedback';

export interface WireScore {
  name: string;
  value: number | string | boolean;
  data_type?: 'numeric' | 'categorical' | 'boolean';
  label?: string;
  comment?: string;
  id?: string;
  call_id?: string;
  trace_id?: string;
  span_id?: string;
  session_id?: string;
  user_id?: string;
}

const cut = (v: unknown, max: number) => (typeof v === 'string' && v !== '' ? v.slice(0, max) : undefined);

/** The wire record, or undefined when it cannot be sent (no name, no value, nothing to score). */
export function buildScoreRecord(s: ScoreInput, active?: { traceId: string; spanId: string }): WireScore | undefined {
  const name = cut(s.name, MAX_SCORE_NAME);
  const v = s.value;
  const value = typeof v === 'number' ? (Number.isFinite(v) ? v : undefined) : typeof v === 'boolean' ? v : cut(v, MAX_SCORE_LABEL);
  if (name === undefined || value === undefined) return undefined;
  const type = s.dataType ?? (typeof value === 'number' ? 'numeric' : typeof value === 'string' ? 'categorical' : 'boolean');
  const fits =
    type === 'numeric' ? typeof value === 'number' : type === 'categorical' ? typeof value === 'string' : typeof value === 'boolean' || value === 0 || value === 1;
  if (!fits) return undefined;
  const ids = {
    call_id: cut(s.callId, MAX_SCORE_ID),
    trace_id: cut(s.traceId, MAX_SCORE_ID),
    span_id: cut(s.spanId, MAX_SCORE_ID),
    session_id: cut(s.sessionId, MAX_SCORE_ID),
    user_id: cut(s.userId, MAX_SCORE_ID),
  };
  if (!ids.call_id && !ids.trace_id && !ids.session_id && !ids.user_id && active) ids.trace_id = active.traceId;
  if (!ids.trace_id) ids.span_id = undefined; // a span is named within its trace
  if (!ids.call_id && !ids.trace_id && !ids.session_id && !ids.user_id) return undefined;
  const record: WireScore = { name, value, data_type: type };
  const label = type === 'numeric' ? cut(s.label, MAX_SCORE_LABEL) : undefined;
  if (label) record.label = label;
  const comment = cut(s.comment, MAX_SCORE_COMMENT);
  if (comment) record.comment = comment;
  const id = cut(s.id, MAX_SCORE_ID);
  if (id) record.id = id;
  for (const [k, v] of Object.entries(ids)) if (v) (record as unknown as Record<string, string>)[k] = v;
  return record;
}
