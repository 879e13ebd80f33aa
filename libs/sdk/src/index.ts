// Main entry, browser-safe: nothing here imports Node built-ins. On Node the
// package's "node" export condition loads node.ts instead, which adds
// AsyncLocalStorage-based context on top of this. This is the public surface:
// wire mapping, retry timing and the context manager stay internal, so they
// can change without breaking users.
export { DevtrailClient, createClient, type SpanOptions, type ClientStats } from './client.js';
export { init, getClient } from './default-client.js';
export type { ClientOptions, ResolvedOptions } from './options.js';
export { Logger, type LoggerBindings } from './logger.js';
export { Span, type SpanEndOptions } from './span.js';
export { Scope, type User } from './scope.js';
export {
  parseTraceparent,
  formatTraceparent,
  extractTraceContext,
  createTraceHeaders,
  type SpanContext,
  type IncomingTraceContext,
} from './trace-context.js';
export { newTraceId, newSpanId, isValidTraceId, isValidSpanId } from './ids.js';
export type { WireLogEntry, WireErrorReport, WireSpan, WireLlmRecord, WireBreadcrumb } from './wire.js';
export type { TransportStats } from './transport/transport.js';
export { Prompt, type PromptData, type PromptMessage } from './prompts/prompt.js';
export { PromptNotAvailableError, type GetPromptOptions } from './prompts/prompt-cache.js';
export { installGlobalErrorHandlers } from './browser/global-errors.js';
export {
  createSpanExporter,
  hrTimeToMs,
  type SpanExporterLike,
  type ReadableSpanLike,
  type ExportResultLike,
  type SpanExporterOptions,
  type HrTime,
} from './otel/span-exporter.js';
export type {
  LogLevel,
  Severity,
  SpanStatus,
  Metadata,
  TagValue,
  TimeInput,
  Breadcrumb,
  CaptureErrorOptions,
  MessageLevel,
  LlmUsageInput,
  MetricInput,
  ScoreInput,
  FeedbackInput,
  LlmMessage,
  SpanRecordInput,
  ErrorReportInput,
  LogEntryInput,
} from './types.js';
