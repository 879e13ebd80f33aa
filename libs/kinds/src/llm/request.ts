import { z } from 'zod';
import { storeAmount, storeCount } from '@devtrail/column-store/store-domain';
import { jsonDepth } from '../json-depth.ts';
import { jsonObject, MAX_JSON_DEPTH, sharedRequestFields } from '../request-fields.ts';
import type { LlmEvent } from './event.ts';
import { capMessages, toMessages } from './messages.ts';

// POST /ingest/llm: one LLM call's usage (docs/api.md), stamped with the receive time, with
// its conversation when the client sends it (messages.ts keeps it in one shape, capped).

/** A message in OpenAI's chat shape (content, tool_calls, tool_call_id) or GenAI's (parts). */
const messageInput = z
  .object({
    role: z.string(),
    content: z.unknown().optional(),
    parts: z.array(z.record(z.unknown())).optional(),
    tool_calls: z.array(z.record(z.unknown())).optional(),
    tool_call_id: z.string().optional(),
    finish_reason: z.string().optional(),
  })
  .passthrough();

/** A conversation side: text (one message), or messages in order; bounded in depth like metadata. */
export const conversationSide = z.union([z.string(), z.array(messageInput)]).superRefine((value, ctx) => {
  if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Nested deeper than ${MAX_JSON_DEPTH} levels` });
});

export const llmUsageSchema = z.object({
  ...sharedRequestFields,
  model: z.string(),
  provider: z.string(),
  operation: z.string(),
  input_tokens: storeCount,
  output_tokens: storeCount,
  /** Of input_tokens, those read from the prompt cache. */
  cached_input_tokens: storeCount.optional(),
  cost_usd: storeAmount.default(0),
  latency_ms: storeCount,
  metadata: jsonObject.optional(),
  input: conversationSide.optional(),
  output: conversationSide.optional(),
});

export type LlmUsageInput = z.infer<typeof llmUsageSchema>;

export function llmToEvent(r: LlmUsageInput, now: string): LlmEvent {
  const input = capMessages(toMessages(r.input, 'user'));
  const output = capMessages(toMessages(r.output, 'assistant'));
  return {
    service: r.service,
    environment: r.environment,
    release: r.release ?? '',
    timestamp: now,
    model: r.model,
    provider: r.provider,
    operation: r.operation,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    cost_usd: r.cost_usd,
    latency_ms: r.latency_ms,
    metadata: r.metadata ?? {},
    input: input.messages,
    output: output.messages,
    content_truncated: input.truncated || output.truncated,
    cached_input_tokens: Math.min(r.cached_input_tokens ?? 0, r.input_tokens),
  };
}
