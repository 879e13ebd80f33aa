import { z } from 'zod';
import { logLevels, severities, spanStatuses } from './schemas.ts';

// The normalised event each Kafka message carries (docs/topics.md). Defaults are
// applied and every optional string is present ('' when absent), so consumers never
// re-derive anything the receiver decided.

const meta = z.record(z.unknown());
const base = { service: z.string(), environment: z.string(), release: z.string() };

export const logEventSchema = z.object({
  ...base,
  timestamp: z.string().datetime({ offset: true }),
  level: z.enum(logLevels),
  message: z.string(),
  metadata: meta,
  trace_id: z.string(),
  span_id: z.string(),
  request_id: z.string(),
  context: z.string(),
});

export const errorEventSchema = z.object({
  ...base,
  timestamp: z.string().datetime({ offset: true }),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  error_type: z.string(),
  error_message: z.string(),
  stack_trace: z.string(),
  severity: z.enum(severities),
  context: meta,
  trace_id: z.string(),
  user_id: z.string(),
  breadcrumbs: z.array(z.object({ type: z.string(), message: z.string(), timestamp: z.string() })),
});

export const spanEventSchema = z.object({
  ...base,
  trace_id: z.string(),
  span_id: z.string(),
  parent_span_id: z.string(),
  operation: z.string(),
  start_time: z.string().datetime({ offset: true }),
  duration_ms: z.number().int().min(0),
  status: z.enum(spanStatuses),
  metadata: meta,
});

export const llmEventSchema = z.object({
  ...base,
  timestamp: z.string().datetime({ offset: true }),
  model: z.string(),
  provider: z.string(),
  operation: z.string(),
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  cost_usd: z.number(),
  latency_ms: z.number().int().min(0),
  metadata: meta,
});

export type LogEvent = z.infer<typeof logEventSchema>;
export type ErrorEvent = z.infer<typeof errorEventSchema>;
export type SpanEvent = z.infer<typeof spanEventSchema>;
export type LlmEvent = z.infer<typeof llmEventSchema>;
