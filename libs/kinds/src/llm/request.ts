import { z } from 'zod';
import { storeAmount, storeCount } from '@devtrail/column-store/store-domain';
import { jsonObject, sharedRequestFields } from '../request-fields.ts';
import type { LlmEvent } from './event.ts';

// POST /ingest/llm: one LLM call's usage (docs/api.md), stamped with the receive time.

export const llmUsageSchema = z.object({
  ...sharedRequestFields,
  model: z.string(),
  provider: z.string(),
  operation: z.string(),
  input_tokens: storeCount,
  output_tokens: storeCount,
  cost_usd: storeAmount.default(0),
  latency_ms: storeCount,
  metadata: jsonObject.optional(),
});

export type LlmUsageInput = z.infer<typeof llmUsageSchema>;

export function llmToEvent(r: LlmUsageInput, now: string): LlmEvent {
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
  };
}
