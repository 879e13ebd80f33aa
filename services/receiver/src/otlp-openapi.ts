import { z } from 'zod';
import { ERRORS, RETRY_AFTER_SECONDS, tooLarge, UNAVAILABLE } from '@devtrail/http';
import type { ApiDocs, ResponseConfig } from '@devtrail/http/api-docs';
import { OTLP_PATHS } from './otlp-paths.ts';
import { ingestHeaders } from './ingest-docs.ts';

// The OTLP/HTTP paths in the published OpenAPI document. Their bodies are the
// OpenTelemetry protocol's own messages (protobuf, or OTLP/JSON), defined by the .proto
// files in libs/otlp/proto, not by zod; they are described, not re-specified, here.
// docs/otlp.md has the mapping.

type Ref = ApiDocs['retryAfter'];

export function documentOtlp(docs: ApiDocs) {
  const r = docs.registry;
  const headers = { rate: docs.rateHeaders as Record<string, Ref>, retryAfter: docs.retryAfter, request: ingestHeaders() };
  const status = r.register(
    'OtlpStatus',
    z
      .object({
        code: z
          .number()
          .int()
          .openapi({ description: 'gRPC status code (3 invalid argument, 8 resource exhausted, 12 unimplemented, 14 unavailable, 16 unauthenticated, ...).' }),
        message: z.string(),
        details: z.array(z.unknown()).optional(),
      })
      .openapi({ description: 'google.rpc.Status, the body of every OTLP 4xx/5xx answer; protobuf-encoded when the request was protobuf.' }),
  );
  const partial = (field: string) =>
    z
      .object({
        partialSuccess: z
          .object({
            [field]: z.string().openapi({ description: 'int64 as a decimal string (proto3 JSON).', example: '1' }),
            errorMessage: z.string().openapi({ example: 'log record 1: metadata: Nested deeper than 32 levels' }),
          })
          .optional()
          .openapi({ description: 'Only when records were refused; the others were stored.' }),
      })
      .openapi({ description: 'Export…ServiceResponse; `{}` when everything was stored.' });
  const bodies = {
    logs: r.register('OtlpLogsResponse', partial('rejectedLogRecords')),
    traces: r.register('OtlpTraceResponse', partial('rejectedSpans')),
    metrics: r.register('OtlpMetricsResponse', partial('rejectedDataPoints')),
  };
  const both = (schema: z.ZodTypeAny, example: unknown) => ({
    'application/json': { schema, example },
    'application/x-protobuf': { schema: z.string().openapi({ format: 'binary' }) },
  });
  const fail = (description: string, message: string, code: number, extra: Record<string, Ref> = {}): ResponseConfig => ({
    description,
    headers: { ...headers.rate, ...extra },
    content: both(status, { code, message }),
  });
  const errors: Record<number, ResponseConfig> = {
    400: fail(
      'The body is not a decodable OTLP message (bad protobuf, malformed JSON, wrong structure, non-hex id in OTLP/JSON).',
      'not a valid ExportLogsServiceRequest (protobuf): index out of range',
      3,
    ),
    401: fail('API key missing, malformed, unknown or revoked.', ERRORS.unauthorized, 16),
    403: fail("Browser request from an origin not in the project's allowed list.", ERRORS.originNotAllowed, 7),
    413: fail(
      'Body larger than 5 MB (counted after gzip decompression), or past a request limit counted before decoding: more than 10,000 log records, spans or metric data points, 20,000 resource and scope groups, or 500,000 messages (docs/otlp.md#limits).',
      tooLarge(5 * 1024 * 1024).message,
      8,
    ),
    415: fail('A Content-Type other than application/x-protobuf or application/json, or a Content-Encoding other than gzip or deflate.', ERRORS.unsupportedType, 3),
    429: fail('Rate limit exceeded (shared with /ingest/*).', ERRORS.rateLimited, 8, { 'Retry-After': headers.retryAfter }),
    503: fail(
      `Kafka did not acknowledge in time, or is failing: the records may or may not have been written. Retry after ${RETRY_AFTER_SECONDS} s with the same Idempotency-Key.`,
      UNAVAILABLE['message-log'],
      14,
      {
        'Retry-After': headers.retryAfter,
      },
    ),
  };
  const request = (message: string) => ({
    required: true,
    content: {
      'application/x-protobuf': { schema: z.string().openapi({ format: 'binary', description: `opentelemetry.proto.collector.${message} (libs/otlp/proto).` }) },
      'application/json': {
        schema: z
          .object({})
          .passthrough()
          .openapi({ description: `${message} in OTLP/JSON (lowerCamelCase, hex ids).` }),
      },
    },
  });
  for (const [signal, path, message, becomes] of [
    ['logs', OTLP_PATHS.logs, 'logs.v1.ExportLogsServiceRequest', 'Each log record becomes a log event.'],
    [
      'traces',
      OTLP_PATHS.traces,
      'trace.v1.ExportTraceServiceRequest',
      'Each span becomes a span event; GenAI spans also LLM usage, `exception` events also error reports.',
    ],
    [
      'metrics',
      OTLP_PATHS.metrics,
      'metrics.v1.ExportMetricsServiceRequest',
      'Each data point (gauge, sum, histogram, exponential histogram, summary) becomes a metric event.',
    ],
  ] as const) {
    r.registerPath({
      method: 'post',
      path,
      tags: ['otlp'],
      summary: `OTLP/HTTP ${signal}`,
      description: `OpenTelemetry exporters send here (OTEL_EXPORTER_OTLP_ENDPOINT = the receiver's base URL). ${becomes} Mapping: docs/otlp.md. The answer uses the request's encoding.`,
      security: [{ apiKey: [] }],
      request: { headers: headers.request, body: request(message) },
      responses: {
        200: { description: 'Stored (durable in Kafka), except the records counted in partialSuccess.', headers: headers.rate, content: both(bodies[signal], {}) },
        ...errors,
      },
    });
  }
  return { name: 'otlp', description: 'OpenTelemetry (OTLP/HTTP) intake; API key. Mapping: docs/otlp.md.' };
}
