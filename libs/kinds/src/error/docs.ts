import { z } from 'zod';
import type { KindDocs } from '../kind.ts';
import { METADATA_NOTE, requestComponent } from '../docs.ts';
import { errorReportSchema } from './request.ts';
import { fingerprintHex } from './event.ts';

export const ERROR_PATH = '/ingest/errors';

export const errorDocs: KindDocs = {
  summary: 'Report one error',
  description: 'Answers the error group fingerprint.',
  sample: {
    error_message: "Cannot read properties of undefined (reading 'id')",
    stack_trace: "TypeError: Cannot read properties of undefined (reading 'id')\n    at getUser (/app/src/users.ts:42:13)",
  },
  required: 'stack_trace',
  recordName: 'ErrorRecord',
  success: {
    name: 'OkFingerprint',
    schema: () => z.object({ ok: z.literal(true), fingerprint: fingerprintHex.openapi({ description: 'SHA-256, 64 lowercase hex (docs/fingerprint.md).' }) }),
  },
  requestBody: (docs) =>
    requestComponent(
      docs,
      'ErrorReport',
      errorReportSchema,
      ERROR_PATH,
      {
        stack_trace: 'Full stack trace. The error type is read from its first line; its top 5 frames feed the fingerprint (docs/fingerprint.md).',
        context: METADATA_NOTE,
      },
      ': one error.',
    ),
};
