import { amount, COMMON_FIELDS, count, json, label, time, type EventOf } from '../fields.ts';

/** An LLM call's fields, in order (kind.ts derives its schema, columns, row and record from them). */
export const LLM_FIELDS = {
  ...COMMON_FIELDS,
  timestamp: time,
  model: label,
  provider: label,
  operation: label,
  input_tokens: count,
  output_tokens: count,
  cost_usd: amount,
  latency_ms: count,
  metadata: json,
};

export type LlmEvent = EventOf<typeof LLM_FIELDS>;
