import { z } from 'zod';
import type { KindDocs } from '../kind.ts';
import { METADATA_NOTE, requestComponent } from '../docs.ts';
import { spanSchema } from './request.ts';

export const SPAN_PATH = '/ingest/traces';

export const spanDocs: KindDocs = {
  summary: 'Send one trace span',
  description: 'One span per request.',
  sample: { trace_id: 't', span_id: 's', operation: 'o', start_time: '2025-01-01T00:00:00Z', duration_ms: 1 },
  required: 'trace_id',
  recordName: 'SpanRecord',
  success: { name: 'Ok', schema: () => z.object({ ok: z.literal(true) }) },
  requestBody: (docs) =>
    requestComponent(
      docs,
      'TraceSpan',
      spanSchema,
      SPAN_PATH,
      {
        parent_span_id: 'Empty string for root spans.',
        start_time: 'ISO 8601; normalised to UTC with milliseconds.',
        duration_ms: 'Milliseconds, >= 0, rounded to an integer.',
        metadata: METADATA_NOTE,
      },
      ': one span.',
    ),
};
