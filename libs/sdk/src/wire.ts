// camelCase inputs -> the snake_case bodies of docs/api.md, normalised so
// the receiver's validation does not reject them: integer counters
// clamped at zero, release cut to 128 characters, enums defaulted.
import { MAX_BREADCRUMBS, MAX_ID_LENGTH, MAX_RELEASE_LENGTH } from './limits.js';
import type {
  Breadcrumb,
  ErrorReportInput,
  LlmMessage,
  LlmUsageInput,
  LogEntryInput,
  LogLevel,
  Metadata,
  Severity,
  SpanRecordInput,
  SpanStatus,
  TimeInput,
} from './types.js';

/** The client-name -> wire-name table (docs/sdk.md). */
export const WIRE_FIELD_NAMES = {
  errorMessage: 'error_message',
  stackTrace: 'stack_trace',
  traceId: 'trace_id',
  spanId: 'span_id',
  parentSpanId: 'parent_span_id',
  startTime: 'start_time',
  durationMs: 'duration_ms',
  inputTokens: 'input_tokens',
  outputTokens: 'output_tokens',
  cachedInputTokens: 'cached_input_tokens',
  costUsd: 'cost_usd',
  latencyMs: 'latency_ms',
  userId: 'user_id',
  requestId: 'request_id',
} as const;

/**
 * Renames the top-level camelCase keys of that table. Nested values
 * (metadata, context) are user data and keep their keys untouched.
 */
export function toWireKeys(input: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const wire = (WIRE_FIELD_NAMES as Record<string, string>)[key] ?? key;
    out[wire] = value;
  }
  return out;
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];

export function toIsoTime(time: TimeInput | undefined): string {
  if (time === undefined) return new Date().toISOString();
  const date = time instanceof Date ? time : new Date(time);
  return Number.isNaN(date.getTime()) ? new Date().toISOString() : date.toISOString();
}

export function nonNegativeInt(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? Math.max(0, Math.round(n)) : 0;
}

export function clampRelease(release: string | undefined): string | undefined {
  return release === undefined ? undefined : String(release).slice(0, MAX_RELEASE_LENGTH);
}

/** An id as the receiver stores it: a string of at most MAX_ID_LENGTH characters; anything else is left out. */
function idOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return String(value).slice(0, MAX_ID_LENGTH);
}

export function normalizeLevel(level: unknown): LogLevel {
  return LEVELS.includes(level as LogLevel) ? (level as LogLevel) : 'info';
}

export function normalizeSeverity(severity: unknown): Severity {
  return SEVERITIES.includes(severity as Severity) ? (severity as Severity) : 'medium';
}

function normalizeStatus(status: unknown): SpanStatus {
  return status === 'error' ? 'error' : 'ok';
}

function optionalObject(value: unknown): Metadata | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Metadata) : undefined;
}

export interface WireBreadcrumb {
  type: string;
  message: string;
  timestamp: string;
}

export function toWireBreadcrumb(b: Breadcrumb): WireBreadcrumb {
  return { type: String(b.type || 'default'), message: String(b.message ?? ''), timestamp: toIsoTime(b.timestamp) };
}

export interface WireLogEntry {
  level: LogLevel;
  message: string;
  timestamp: string;
  metadata?: Metadata;
  trace_id?: string;
  span_id?: string;
  request_id?: string;
  context?: string;
  release?: string;
}

export function buildLogEntry(input: LogEntryInput): WireLogEntry {
  const w = toWireKeys(input);
  return toWireKeys({
    level: normalizeLevel(w.level),
    message: typeof w.message === 'string' ? w.message : String(w.message ?? ''),
    timestamp: toIsoTime(w.timestamp as TimeInput | undefined),
    metadata: optionalObject(w.metadata),
    trace_id: idOf(w.trace_id),
    span_id: idOf(w.span_id),
    request_id: idOf(w.request_id),
    context: w.context === undefined ? undefined : String(w.context),
    release: clampRelease(w.release as string | undefined),
  }) as unknown as WireLogEntry;
}

export interface WireErrorReport {
  error_message: string;
  stack_trace: string;
  severity: Severity;
  context?: Metadata;
  trace_id?: string;
  user_id?: string;
  breadcrumbs?: WireBreadcrumb[];
  fingerprint?: string[];
}

export function buildErrorReport(input: ErrorReportInput): WireErrorReport {
  const w = toWireKeys(input);
  const message = String(w.error_message ?? '') || 'Unknown error';
  const crumbs = Array.isArray(w.breadcrumbs) ? (w.breadcrumbs as Breadcrumb[]).slice(-MAX_BREADCRUMBS).map(toWireBreadcrumb) : undefined;
  return toWireKeys({
    error_message: message,
    // stack_trace is required on the wire; a message-only line beats a rejected report.
    stack_trace: String(w.stack_trace ?? '') || message,
    severity: normalizeSeverity(w.severity),
    context: optionalObject(w.context),
    trace_id: idOf(w.trace_id),
    user_id: w.user_id === undefined || w.user_id === null ? undefined : String(w.user_id),
    breadcrumbs: crumbs && crumbs.length > 0 ? crumbs : undefined,
    // The receiver takes up to 20 strings of up to 500 characters.
    fingerprint: Array.isArray(w.fingerprint) && w.fingerprint.length > 0 ? w.fingerprint.slice(0, 20).map((f) => String(f).slice(0, 500)) : undefined,
  }) as unknown as WireErrorReport;
}

export interface WireSpan {
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  operation: string;
  start_time: string;
  duration_ms: number;
  status: SpanStatus;
  metadata?: Metadata;
}

/** Built field by field, without intermediate objects: one span per request makes this the hottest builder (docs/sdk.md#overhead). */
export function buildSpanRecord(input: SpanRecordInput): WireSpan {
  const record: WireSpan = {
    trace_id: String(input.traceId).slice(0, MAX_ID_LENGTH),
    span_id: String(input.spanId).slice(0, MAX_ID_LENGTH),
    parent_span_id: typeof input.parentSpanId === 'string' ? input.parentSpanId.slice(0, MAX_ID_LENGTH) : '',
    operation: String(input.operation ?? '') || 'unknown',
    start_time: toIsoTime(input.startTime),
    duration_ms: nonNegativeInt(input.durationMs),
    status: normalizeStatus(input.status),
  };
  const metadata = optionalObject(input.metadata);
  if (metadata) record.metadata = metadata;
  return record;
}

export interface WireLlmRecord {
  model: string;
  provider: string;
  operation: string;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens?: number;
  cost_usd: number;
  latency_ms: number;
  metadata?: Metadata;
  input?: string | LlmMessage[];
  output?: string | LlmMessage[];
}

const conversationSide = (v: unknown) => (typeof v === 'string' || Array.isArray(v) ? (v as string | LlmMessage[]) : undefined);

export function buildLlmRecord(input: LlmUsageInput): WireLlmRecord {
  const { userId, sessionId, prompt: _linked, input: prompt, output: answer, ...rest } = input; // _linked: already in metadata (client.ts)
  const w = toWireKeys(rest);
  const cost = Number(w.cost_usd ?? 0);
  const who = { ...(userId ? { 'enduser.id': String(userId) } : {}), ...(sessionId ? { 'session.id': String(sessionId) } : {}) };
  const metadata = optionalObject(w.metadata);
  return toWireKeys({
    model: String(w.model ?? '') || 'unknown',
    provider: String(w.provider ?? '') || 'unknown',
    operation: String(w.operation ?? '') || 'unknown',
    input_tokens: nonNegativeInt(w.input_tokens),
    output_tokens: nonNegativeInt(w.output_tokens),
    ...(w.cached_input_tokens !== undefined && { cached_input_tokens: nonNegativeInt(w.cached_input_tokens) }),
    cost_usd: Number.isFinite(cost) && cost > 0 ? cost : 0,
    latency_ms: nonNegativeInt(w.latency_ms),
    metadata: Object.keys(who).length > 0 ? { ...metadata, ...who } : metadata,
    input: conversationSide(prompt),
    output: conversationSide(answer),
  }) as unknown as WireLlmRecord;
}

export interface Envelope {
  service: string;
  environment: string;
  release?: string;
}
