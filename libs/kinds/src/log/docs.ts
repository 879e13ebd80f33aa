import { z, type AnyZodObject } from 'zod';
import { describeFields } from '@devtrail/http/api-docs';
import type { KindDocs } from '../kind.ts';
import { METADATA_NOTE, requestComponent } from '../docs.ts';
import { MAX_RELEASE_LENGTH } from '../request-fields.ts';
import { logBatchSchema, MAX_LOGS_PER_BATCH } from './request.ts';

export const LOG_PATH = '/ingest/logs';

export const logDocs: KindDocs = {
  summary: 'Send a batch of log entries',
  description: `1 to ${MAX_LOGS_PER_BATCH} logs; count is the number accepted.`,
  sample: { logs: [{ level: 'info', message: 'm' }] },
  required: 'logs',
  recordName: 'LogRecord',
  success: { name: 'OkCount', schema: () => z.object({ ok: z.literal(true), count: z.number().int().min(0) }) },
  requestBody(docs) {
    const logs = logBatchSchema.shape.logs as unknown as z.ZodArray<AnyZodObject>;
    const entry = docs.registry.register(
      'LogEntry',
      describeFields(logs.element, {
        timestamp: 'ISO 8601 with a Z or an offset; normalised to UTC with milliseconds. Default: the receive time.',
        metadata: METADATA_NOTE,
        context: 'Logger context name.',
        release: `Overrides the batch release; at most ${MAX_RELEASE_LENGTH} characters.`,
      }),
    );
    // The batch's own logs array (its min and max kept), with items pointing at LogEntry.
    const batch = logBatchSchema.extend({ logs: new z.ZodArray({ ...logs._def, type: entry }) });
    return requestComponent(docs, 'LogBatch', batch, LOG_PATH, { logs: `1 to ${MAX_LOGS_PER_BATCH} entries.` }, '.');
  },
};
