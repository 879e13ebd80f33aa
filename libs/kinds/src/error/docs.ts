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
    schema: () =>
      z.object({
        ok: z.literal(true),
        fingerprint: fingerprintHex.openapi({ description: 'The group the report joined: SHA-256, 64 lowercase hex (docs/fingerprint.md).' }),
      }),
  },
  requestBody: (docs) =>
    requestComponent(
      docs,
      'ErrorReport',
      errorReportSchema,
      ERROR_PATH,
      {
        stack_trace:
          'Full stack trace, as the runtime prints it (JavaScript, Python, Java, .NET, Go, Ruby). Its type and in-app frames make the group; without a usable stack, the type and the message with its parameters stripped do (docs/fingerprint.md).',
        context: `${METADATA_NOTE} error_type (the SDK) and exception.type (OTLP) name the error's type.`,
        fingerprint:
          'The group this report joins, chosen by the client: up to 20 strings; "{{ default }}" stands for the computed group (docs/fingerprint.md, "Choosing the group").',
      },
      ': one error.',
    ),
};
