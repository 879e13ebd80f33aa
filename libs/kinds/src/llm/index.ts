import { defineKind } from '../kind.ts';
import { LLM_FIELDS } from './event.ts';
import { llmToEvent, llmUsageSchema } from './request.ts';
import { llmFromOtlp } from './otlp.ts';
import { LLM_PATH, llmDocs } from './docs.ts';

// LLM usage: one call per request (also from OTLP GenAI spans, otlp.ts).
export const llm = defineKind({
  id: 'llm',
  name: 'llm',
  path: LLM_PATH,
  request: llmUsageSchema,
  fields: LLM_FIELDS,
  toEvents: (body, now) => [llmToEvent(body, now)],
  respond: () => ({ ok: true }),
  table: {
    formerly: ['llm_usage'],
    // When it was received: the Ingestion page counts by it (rows written before it was added read 1970).
    receivedAt: true,
    engine: 'ReplacingMergeTree',
    partitionBy: 'toYYYYMM(timestamp)',
    orderBy: '(project_id, timestamp, event_id)',
    ttlColumn: 'timestamp',
    timeColumn: 'timestamp',
  },
  otlp: llmFromOtlp,
  docs: llmDocs,
});
