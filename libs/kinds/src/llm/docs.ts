import { z } from 'zod';
import type { KindDocs } from '../kind.ts';
import { COUNT_NOTE, METADATA_NOTE, requestComponent } from '../docs.ts';
import { llmUsageSchema } from './request.ts';

export const LLM_PATH = '/ingest/llm';

export const llmDocs: KindDocs = {
  summary: 'Record one LLM call',
  description: 'One usage record per request.',
  sample: { model: 'm', provider: 'p', operation: 'o', input_tokens: 1, output_tokens: 1, latency_ms: 1 },
  required: 'model',
  recordName: 'LlmUsageSummary',
  success: { name: 'Ok', schema: () => z.object({ ok: z.literal(true) }) },
  requestBody: (docs) =>
    requestComponent(
      docs,
      'LlmUsage',
      llmUsageSchema,
      LLM_PATH,
      {
        input_tokens: COUNT_NOTE,
        output_tokens: COUNT_NOTE,
        latency_ms: COUNT_NOTE,
        cost_usd: 'Estimated cost in US dollars.',
        metadata: METADATA_NOTE,
      },
      '.',
    ),
};
