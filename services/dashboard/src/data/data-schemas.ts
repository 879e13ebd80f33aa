import { z } from 'zod';
import { llmPolicySchema, quotasSchema, retentionSchema, samplingSchema, scrubbingSchema, spikeGuardSchema } from '@devtrail/data-policy';

// Bodies of the data policy's routes (routes.ts, docs/data.md, docs/api.md).

export const retentionBody = z.object({ retention_days: retentionSchema }).strict();
export const scrubbingBody = scrubbingSchema;
export const quotasBody = z.object({ quotas: quotasSchema.optional(), spike_guard: spikeGuardSchema.optional() }).strict();
export const samplingBody = z.object({ sampling: samplingSchema }).strict();
export const llmBody = z.object({ llm: llmPolicySchema }).strict();
