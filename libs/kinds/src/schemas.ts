import { z } from 'zod';
import { jsonDepth } from './json-depth.ts';
import { storeAmount, storeCount, storeTimestamp } from '@devtrail/column-store/store-domain';

// Request bodies exactly as spec section 2 defines them. These schemas are the single
// source for validation in the receiver and for the published OpenAPI document.

export const MAX_JSON_DEPTH = 32;
export const MAX_LOGS_PER_BATCH = 1000;
export const MAX_RELEASE_LENGTH = 128;
/** Trace, span, parent span and request ids: W3C ids are 32 and 16 hex, others rarely longer than 40. */
export const MAX_ID_LENGTH = 128;

const release = z.string().max(MAX_RELEASE_LENGTH);
const id = z.string().max(MAX_ID_LENGTH);
const isoTimestamp = storeTimestamp;
const nonNegativeInt = storeCount;

/** Arbitrary key-value data, bounded in depth so later serialisation stays safe. */
export const jsonObject = z.record(z.unknown()).superRefine((value, ctx) => {
  if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Nested deeper than ${MAX_JSON_DEPTH} levels` });
  }
});

const shared = {
  service: z.string().default('unknown'),
  environment: z.string().default('production'),
  release: release.optional(),
};

export const logLevels = ['debug', 'info', 'warn', 'error'] as const;
export const severities = ['low', 'medium', 'high', 'critical'] as const;
export const spanStatuses = ['ok', 'error'] as const;

export const logEntrySchema = z.object({
  level: z.enum(logLevels),
  message: z.string(),
  timestamp: isoTimestamp.optional(),
  metadata: jsonObject.optional(),
  trace_id: id.optional(),
  span_id: id.optional(),
  request_id: id.optional(),
  context: z.string().optional(),
  release: release.optional(),
});

export const logBatchSchema = z.object({
  ...shared,
  logs: z.array(logEntrySchema).min(1).max(MAX_LOGS_PER_BATCH),
});

export const breadcrumbSchema = z.object({
  type: z.string(),
  message: z.string(),
  timestamp: isoTimestamp,
});

export const errorReportSchema = z.object({
  ...shared,
  error_message: z.string(),
  stack_trace: z.string(),
  severity: z.enum(severities).default('medium'),
  context: jsonObject.optional(),
  trace_id: id.optional(),
  user_id: z.string().optional(),
  breadcrumbs: z.array(breadcrumbSchema).optional(),
});

export const spanSchema = z.object({
  ...shared,
  trace_id: id,
  span_id: id,
  parent_span_id: id.default(''),
  operation: z.string(),
  start_time: isoTimestamp,
  duration_ms: nonNegativeInt,
  status: z.enum(spanStatuses).default('ok'),
  metadata: jsonObject.optional(),
});

export const llmUsageSchema = z.object({
  ...shared,
  model: z.string(),
  provider: z.string(),
  operation: z.string(),
  input_tokens: nonNegativeInt,
  output_tokens: nonNegativeInt,
  cost_usd: storeAmount.default(0),
  latency_ms: nonNegativeInt,
  metadata: jsonObject.optional(),
});

export type LogBatch = z.infer<typeof logBatchSchema>;
export type LogEntry = z.infer<typeof logEntrySchema>;
export type ErrorReport = z.infer<typeof errorReportSchema>;
export type SpanInput = z.infer<typeof spanSchema>;
export type LlmUsageInput = z.infer<typeof llmUsageSchema>;
