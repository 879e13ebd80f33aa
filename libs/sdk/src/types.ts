// Public input types. Callers use camelCase; wire.ts turns these into the
// snake_case bodies the ingest endpoints expect (docs/api.md, docs/sdk.md).

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Severity = 'low' | 'medium' | 'high' | 'critical';
export type SpanStatus = 'ok' | 'error';
export type Metadata = Record<string, unknown>;
export type TagValue = string | number | boolean;
/** ISO 8601 string, epoch milliseconds or a Date. */
export type TimeInput = string | number | Date;

export interface Breadcrumb {
  /** Kind of breadcrumb, for example http, ui, navigation, log. */
  type: string;
  message: string;
  timestamp?: TimeInput;
}

/** A message's level (Sentry's names); it becomes the report's severity (docs/sdk.md#scopes). */
export type MessageLevel = 'debug' | 'info' | 'log' | 'warning' | 'error' | 'fatal';

export interface CaptureErrorOptions {
  severity?: Severity;
  userId?: string;
  /** Arbitrary context sent as the error's `context` object. */
  context?: Metadata;
  /** Extra breadcrumbs, appended after the ones recorded on the current scope. */
  breadcrumbs?: Breadcrumb[];
  /** Overrides the trace id taken from the active span. */
  traceId?: string;
  /** The group this error joins, instead of the computed one; "{{ default }}" stands for the computed one (docs/fingerprint.md). */
  fingerprint?: string[];
}

export interface LlmUsageInput {
  model: string;
  provider: string;
  /** For example chat.completion or embedding. */
  operation: string;
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens, those read from the provider's prompt cache (priced at the cached-input price). */
  cachedInputTokens?: number;
  latencyMs: number;
  /** Leave out to let devtrail estimate it from the tokens and its price table. */
  costUsd?: number;
  metadata?: Metadata;
  /** The prompt: text, or messages in OpenAI's chat shape or OpenTelemetry GenAI's (stored capped, docs/api.md). */
  input?: string | LlmMessage[];
  /** The model's answer, in the same shapes. */
  output?: string | LlmMessage[];
  /** Who the call was for: metadata `enduser.id`. */
  userId?: string;
  /** The session or conversation it belongs to: metadata `session.id`. */
  sessionId?: string;
  /** The prompt version the call used (getPrompt's answer, or its name and version): metadata `prompt.name`, `prompt.version`. */
  prompt?: { readonly attributes: Record<string, string | number> } | { name: string; version: number };
}

/**
 * A score on LLM work (docs/sdk.md#scores): an evaluation or a user's feedback, on a call, a
 * trace (the active one by default), a session or a user.
 */
export interface ScoreInput {
  name: string;
  /** A number (numeric), a string (categorical) or true/false (boolean). */
  value: number | string | boolean;
  dataType?: 'numeric' | 'categorical' | 'boolean';
  /** A numeric score's label as well (an evaluator's verdict). */
  label?: string;
  comment?: string;
  /** Your own id: sending a score again with it replaces the earlier one. */
  id?: string;
  /** An LLM call's event_id, as the read API shows it. */
  callId?: string;
  /** The trace (with spanId: one span of it); default: the active trace, when no other target is given. */
  traceId?: string;
  spanId?: string;
  sessionId?: string;
  userId?: string;
}

/** A user's thumbs up or down (docs/sdk.md#scores): a boolean score named user_feedback. */
export type FeedbackInput = Omit<ScoreInput, 'name' | 'value' | 'dataType' | 'label'> & { positive: boolean };

/**
 * One metric data point as devtrail stores it (docs/sdk.md#metrics): a gauge's reading, or what a
 * counter added (a delta sum). For aggregation, histograms and exporting on a timer, use the
 * OpenTelemetry metrics SDK with devtrail as its OTLP endpoint (docs/otlp.md).
 */
export interface MetricInput {
  metric: string;
  type: 'gauge' | 'sum';
  value: number;
  /** Sums: `delta` (default: what this point added) or `cumulative` (the total since `startTime`). */
  temporality?: 'delta' | 'cumulative';
  /** Sums: only grows (a counter). Default true for sums. */
  monotonic?: boolean;
  unit?: string;
  description?: string;
  attributes?: Metadata;
  /** Default: now. */
  time?: Date | string;
  startTime?: Date | string;
}

/** A message of a conversation: `content` (text or parts) with OpenAI's `tool_calls` / `tool_call_id`, or GenAI's `parts`. */
export interface LlmMessage {
  role: string;
  content?: unknown;
  parts?: Array<Record<string, unknown>>;
  tool_calls?: Array<Record<string, unknown>>;
  tool_call_id?: string;
  finish_reason?: string;
}

/** A finished span in camelCase, for callers (such as exporters) that time spans themselves. */
export interface SpanRecordInput {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  operation: string;
  startTime: TimeInput;
  durationMs: number;
  status?: SpanStatus;
  metadata?: Metadata;
}

export interface ErrorReportInput {
  errorMessage: string;
  stackTrace: string;
  severity?: Severity;
  context?: Metadata;
  traceId?: string;
  userId?: string;
  breadcrumbs?: Breadcrumb[];
  fingerprint?: string[];
}

export interface LogEntryInput {
  level: LogLevel;
  message: string;
  timestamp?: TimeInput;
  metadata?: Metadata;
  traceId?: string;
  spanId?: string;
  requestId?: string;
  context?: string;
  release?: string;
}
