import { added, amount, COMMON_FIELDS, count, flag, json, jsonList, label, time, type EventOf, type FieldType } from '../fields.ts';
import { isMessageList, messageSchema, type Message } from './messages.ts';

/** A conversation side: its messages as JSON text, scrubbed as a tree, dropped when a project turns content capture off. */
const messages: FieldType<Message[]> = { ...jsonList(messageSchema), is: isMessageList, content: true, conversation: true };

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
  /** With the session the call belongs to (session.id, gen_ai.conversation.id): ids, which scrubbing leaves as it leaves trace ids. */
  metadata: { ...json, scrubKeeps: ['session.id', 'gen_ai.conversation.id'], conversation: true as const },
  /** The prompt's messages (docs/otlp.md, "Conversation"). */
  input: added(messages, []),
  /** The model's messages. */
  output: added(messages, []),
  /** Whether input or output were cut at the cap (messages.ts). */
  content_truncated: added(flag, false),
  /** Of input_tokens, those read from the provider's prompt cache (priced at the cached price, cost.ts). */
  cached_input_tokens: added(count, 0),
};

export type LlmEvent = EventOf<typeof LLM_FIELDS>;
