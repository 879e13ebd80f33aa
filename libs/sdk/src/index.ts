// Main entry, browser-safe: nothing here imports Node built-ins. On Node the
// package's "node" export condition loads node.ts instead, which adds
// AsyncLocalStorage-based context on top of this.
export { DevtrailClient, createClient, type SpanOptions } from './client.js';
export { init, getClient } from './default-client.js';
export type { ClientOptions, ResolvedOptions } from './options.js';
export { Logger, type LoggerBindings } from './logger.js';
export { Span, type SpanEndOptions } from './span.js';
export { Scope } from './scope.js';
export {
  parseTraceparent, formatTraceparent, extractTraceContext, createTraceHeaders,
  type SpanContext, type IncomingTraceContext,
} from './trace-context.js';
export { newTraceId, newSpanId, isValidTraceId, isValidSpanId } from './ids.js';
export {
  WIRE_FIELD_NAMES, toWireKeys, buildLogEntry, buildErrorReport, buildSpanRecord, buildLlmRecord,
  type WireLogEntry, type WireErrorReport, type WireSpan, type WireLlmRecord, type WireBreadcrumb,
} from './wire.js';
export { backoffDelay, parseRetryAfter } from './transport/backoff.js';
export type { TransportStats } from './transport/transport.js';
export { installGlobalErrorHandlers } from './browser-errors.js';
export {
  getContextManager, setContextManager, installAsyncContext,
  type ContextManager, type ActiveContext, type AsyncLocalStorageClass,
} from './context/context-manager.js';
export type {
  LogLevel, Severity, SpanStatus, Metadata, TagValue, TimeInput, Breadcrumb, CaptureErrorOptions,
  LlmUsageInput, SpanRecordInput, ErrorReportInput, LogEntryInput,
} from './types.js';
