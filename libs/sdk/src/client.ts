// The devtrail client: logger, errors, spans and LLM usage, all funnelled
// through one transport. Every public method swallows its own failures:
// telemetry must never take the application down.
import { activeContext, runWithContext } from './context/context-manager.js';
import { isBrowser } from './env.js';
import { errorInfo, type ErrorInfo } from './error-info.js';
import { isValidSpanId, isValidTraceId } from './ids.js';
import { Logger, type LoggerBindings } from './logger.js';
import { API_KEY_PATTERN, resolveOptions, type ClientOptions, type ResolvedOptions } from './options.js';
import { ownConsole } from './breadcrumbs/console.js';
import { installBreadcrumbs } from './browser/breadcrumbs.js';
import { installGlobalErrorHandlers } from './browser/global-errors.js';
import { installBrowserTracing } from './browser/tracing.js';
import { pageContext } from './browser/page-context.js';
import { Scope, mergeScopes, type User } from './scope.js';
import { Session } from './sessions.js';
import { Span } from './span.js';
import { activeOtelSpanContext } from './otel/active-span.js';
import { runtimeHooks } from './runtime-hooks.js';
import { createTraceHeaders, type SpanContext } from './trace-context.js';
import { LocalStorageStore, storeName, type RequestStore } from './transport/request-store.js';
import { HttpTransport, NoopTransport, type TelemetryTransport, type TransportStats } from './transport/transport.js';
import type {
  Breadcrumb,
  CaptureErrorOptions,
  FeedbackInput,
  LlmUsageInput,
  LogLevel,
  MessageLevel,
  Metadata,
  MetricInput,
  ScoreInput,
  Severity,
  SpanRecordInput,
  TagValue,
} from './types.js';
import { buildScoreRecord, USER_FEEDBACK } from './score.js';
import { PromptCache, type GetPromptOptions } from './prompts/prompt-cache.js';
import type { Prompt } from './prompts/prompt.js';
import { buildErrorReport, buildLlmRecord, buildLogEntry, buildSpanRecord, clampRelease, type WireErrorReport, type WireLogEntry, type WireSpan } from './wire.js';

/** Delivery counts, and the records left out on purpose: by `sampleRate` or a `beforeSend*` hook (not counted as dropped). */
export interface ClientStats extends TransportStats {
  sampledOut: number;
  filteredOut: number;
}

export interface SpanOptions {
  /** Parent span or remote span context. Default: the active span. `null` starts a new trace. */
  parent?: Span | SpanContext | null;
  /** Join this trace (e.g. from incoming headers) when no `parent` is given. */
  traceId?: string;
  parentSpanId?: string;
  metadata?: Metadata;
  /** Epoch milliseconds. */
  startTime?: number;
  /** The caller's sampled flag, with `traceId` (incoming trace context). */
  sampled?: boolean;
  /** The request scope whose tags the span carries (middleware: the request's own). Default: the active one. */
  scope?: Scope;
  /** Take no parent from the active span: only `traceId`/`parentSpanId` (a server span, whose caller's headers decide). */
  detached?: boolean;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}

const MESSAGE_SEVERITY: Record<MessageLevel, Severity> = { debug: 'low', info: 'low', log: 'low', warning: 'medium', error: 'high', fatal: 'critical' };
const NO_TAGS: Record<string, TagValue> = Object.freeze({}) as Record<string, TagValue>;
const noop = (): void => {};

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

function withTags(tags: Record<string, TagValue>, ...rest: (Metadata | undefined)[]): Metadata | undefined {
  // Nothing to merge (no tags, one part): that part as it is, without a copy per record.
  if (isEmpty(tags) && rest.length === 1) return rest[0] && !isEmpty(rest[0]) ? rest[0] : undefined;
  const merged: Metadata = { ...tags };
  for (const part of rest) if (part) Object.assign(merged, part);
  return Object.keys(merged).length > 0 ? merged : undefined;
}

export class DevtrailClient {
  readonly options: ResolvedOptions;
  /** False when no key (or no base URL) is configured: every call is then a cheap no-op. */
  readonly enabled: boolean;
  readonly logger: Logger;
  private readonly transport: TelemetryTransport;
  private readonly globalScope: Scope;
  private readonly detachBrowser: (() => void) | undefined;
  private readonly detachProcess: (() => void) | undefined;
  private sampledOut = 0;
  /** Browser: the page-load, navigation or click span in progress (browser/tracing.ts), for what has no span of its own. */
  private ambientSpan: (() => Span | undefined) | undefined;
  /** Release health: this process's or page's session (sessions.ts). */
  private session: Session | undefined;
  private filteredOut = 0;
  private prompts: PromptCache | undefined;

  constructor(options: ClientOptions = {}) {
    const o = (this.options = resolveOptions(options));
    this.globalScope = new Scope(o.maxBreadcrumbs);
    Object.assign(this.globalScope.tags, o.tags);
    this.enabled = this.checkEnabled();
    this.transport = this.enabled
      ? new HttpTransport({
          apiKey: o.apiKey!,
          baseUrl: o.baseUrl!,
          envelope: { service: o.service, environment: o.environment, release: clampRelease(o.release) },
          batchSize: o.batchSize,
          maxBatchBytes: o.maxBatchBytes,
          flushIntervalMs: o.flushIntervalMs,
          maxQueueSize: o.maxQueueSize,
          maxQueueBytes: o.maxQueueBytes,
          maxRetries: o.maxRetries,
          retryForMs: o.retryForMs,
          store: this.offlineStore(),
          initialBackoffMs: o.initialBackoffMs,
          maxBackoffMs: o.maxBackoffMs,
          requestTimeoutMs: o.requestTimeoutMs,
          keepalive: o.keepalive,
          fetch: o.fetch!,
          warn: o.warn,
        })
      : new NoopTransport();
    this.logger = new Logger((level, message, metadata, bindings) => this.writeLog(level, message, metadata, bindings));
    if (this.enabled && o.autoSessionTracking && o.release) this.startSession();
    this.detachBrowser = this.enabled && isBrowser() ? this.attachToPage() : undefined;
    this.detachProcess = this.enabled ? runtimeHooks()?.attach(this) : undefined;
  }

  /** Where unsent error reports wait out a page close or a restart (docs/sdk.md#outages). */
  private offlineStore(): RequestStore | undefined {
    const o = this.options;
    if (!o.persistErrors) return undefined;
    const name = storeName(o.apiKey!, o.baseUrl!);
    if (isBrowser()) return new LocalStorageStore(name, o.persistErrors.maxBytes);
    return o.persistErrors.dir ? runtimeHooks()?.spool?.(o.persistErrors.dir, o.persistErrors.maxBytes) : undefined;
  }

  private checkEnabled(): boolean {
    const o = this.options;
    if (!o.enabled || !o.apiKey) return false; // no key: stay silent, by design
    if (!o.baseUrl) {
      o.warn('an API key is set but no baseUrl (or DEVTRAIL_BASE_URL); telemetry is disabled');
      return false;
    }
    if (!o.fetch) {
      o.warn('no global fetch in this runtime; pass options.fetch. Telemetry is disabled');
      return false;
    }
    if (!API_KEY_PATTERN.test(o.apiKey)) o.warn('the API key does not look like dt_ followed by 24 hex characters');
    return true;
  }

  // ---- logs ---------------------------------------------------------------

  /** A logger with a context name or extra bindings (see Logger.child). */
  child(bindings: string | LoggerBindings): Logger {
    return this.logger.child(bindings);
  }

  private writeLog(level: LogLevel, message: string, metadata: Metadata | undefined, bindings: LoggerBindings): void {
    if (this.options.console) this.printToConsole(level, message, metadata, bindings);
    if (level !== 'debug') this.addBreadcrumb({ type: 'log', message: `[${level}] ${message}` });
    if (!this.enabled) return;
    const active = activeContext();
    const span = this.correlation(active);
    const entry = buildLogEntry({
      level,
      message,
      metadata: withTags(this.currentTags(active?.scope), bindings.metadata, metadata),
      traceId: bindings.traceId ?? span?.traceId,
      spanId: bindings.spanId ?? span?.spanId,
      requestId: bindings.requestId ?? active?.requestId,
      context: bindings.context,
    });
    this.queue('log', this.hook(this.options.beforeSendLog, entry));
  }

  private printToConsole(level: LogLevel, message: string, metadata: Metadata | undefined, bindings: LoggerBindings): void {
    const prefix = bindings.context ? `[${bindings.context}] ` : '';
    const args: unknown[] = [`${prefix}${message}`];
    if (metadata) args.push(metadata);
    ownConsole(() => console[level](...args));
  }

  // ---- errors -------------------------------------------------------------

  captureError(error: unknown, options: CaptureErrorOptions = {}): void {
    if (!this.enabled) return;
    try {
      this.report(errorInfo(error), options, error);
    } catch {
      // see class comment
    }
  }

  /**
   * Reports a message as an error report of its own (Sentry's captureMessage): grouped by its
   * text, with the scope's user, tags, contexts and breadcrumbs. The level gives the severity
   * (debug, info, log: low; warning: medium; error: high; fatal: critical).
   */
  captureMessage(message: string, level: MessageLevel | (CaptureErrorOptions & { level?: MessageLevel }) = 'info'): void {
    if (!this.enabled) return;
    try {
      const { level: lvl = 'info', ...options } = typeof level === 'string' ? { level } : level;
      const text = String(message) || 'Empty message';
      this.report(
        { message: text, stack: text, type: 'message' },
        { severity: MESSAGE_SEVERITY[lvl] ?? 'low', ...options, context: { level: lvl, ...options.context } },
        message,
      );
    } catch {
      // see class comment
    }
  }

  private report(info: ErrorInfo, options: CaptureErrorOptions, error: unknown): void {
    // Counted for the session whether or not the report is sampled: health counts every error.
    this.session?.error(options.context?.handled !== false);
    const rate = this.options.sampleRate;
    if (rate < 1 && !(Math.random() < rate)) {
      this.sampledOut++;
      return;
    }
    const active = activeContext();
    const scope = mergeScopes(this.globalScope, active?.scope, this.options.maxBreadcrumbs);
    const span = this.correlation(active);
    const report = buildErrorReport({
      errorMessage: info.message,
      stackTrace: info.stack,
      severity: options.severity,
      context: withTags(
        scope.tags,
        scope.contexts,
        {
          error_type: info.type,
          span_id: span?.spanId,
          request_id: active?.requestId,
          user: scope.user,
          extra: isEmpty(scope.extras) ? undefined : scope.extras,
          ...pageContext(),
        },
        options.context,
      ),
      traceId: options.traceId ?? span?.traceId,
      userId: options.userId ?? scope.userId,
      breadcrumbs: [...scope.breadcrumbs, ...(options.breadcrumbs ?? [])],
      fingerprint: options.fingerprint,
    });
    const hook = this.options.beforeSend;
    this.queue('error', this.hook(hook && ((r: WireErrorReport) => hook(r, { error })), report));
  }

  // ---- spans --------------------------------------------------------------

  /**
   * Runs `fn` inside a new span and ends it when `fn` returns or its promise
   * settles: status ok, or error if it threw/rejected (the error is rethrown).
   */
  startSpan<T>(operation: string, fn: (span: Span) => T, options: SpanOptions = {}): T {
    const span = this.startManualSpan(operation, options);
    let result: T;
    try {
      result = this.withSpan(span, () => fn(span));
    } catch (err) {
      span.recordError(err).end();
      throw err;
    }
    if (!isPromiseLike(result)) {
      span.end();
      return result;
    }
    return result.then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        span.recordError(err).end();
        throw err;
      },
    ) as T;
  }

  /** A span you end yourself with `span.end()`. It is not made active; use withSpan for that. */
  startManualSpan(operation: string, options: SpanOptions = {}): Span {
    const active = activeContext();
    let traceId: string | undefined;
    let parentSpanId: string | undefined;
    let sampled: boolean | undefined;
    if (options.parent) ({ traceId, spanId: parentSpanId, sampled } = options.parent);
    else if (options.parent === undefined && options.traceId) ({ traceId, parentSpanId, sampled } = options);
    else if (options.parent === undefined && !options.detached) {
      const parent = active?.span ?? this.ambientSpan?.();
      if (parent) ({ traceId, spanId: parentSpanId, sampled } = parent);
    }
    if (!isValidTraceId(traceId)) traceId = parentSpanId = sampled = undefined;
    if (!isValidSpanId(parentSpanId)) parentSpanId = undefined;
    // A trace's first span decides whether the trace is sampled; every span under it follows.
    sampled ??= traceId === undefined ? this.sampleTrace() : true;
    const scope = options.scope ?? active?.scope;
    // An unsampled span is never sent: no closure to send it (docs/sdk.md#overhead).
    const onEnd = sampled && this.enabled ? (span: Span) => this.sendSpan(span, scope) : noop;
    return new Span({ operation, traceId, parentSpanId, metadata: options.metadata, startTime: options.startTime, sampled }, onEnd);
  }

  /** Runs `fn` with `span` as the active span (logs and child spans attach to it). */
  withSpan<T>(span: Span, fn: () => T): T {
    return runWithContext({ ...activeContext(), span }, fn);
  }

  /** The active span; in browsers, else the page-load, navigation or click span in progress. */
  activeSpan(): Span | undefined {
    return activeContext()?.span ?? this.ambientSpan?.();
  }

  /** Sends an already-finished span, e.g. one converted from OpenTelemetry. */
  recordSpan(record: SpanRecordInput): void {
    if (!this.enabled) return;
    try {
      this.transport.send(
        'span',
        buildSpanRecord({
          ...record,
          metadata: withTags(this.globalScope.tags, record.metadata),
        }),
      );
    } catch {
      // see class comment
    }
  }

  /** The span logs, errors and LLM records are correlated with: devtrail's active span, else OpenTelemetry's (an app that runs the OTel SDK). */
  private correlation(active: ReturnType<typeof activeContext>): SpanContext | undefined {
    return active?.span ?? this.ambientSpan?.() ?? activeOtelSpanContext();
  }

  /** tracesSampleRate's decision for a new trace. */
  private sampleTrace(): boolean {
    const rate = this.options.tracesSampleRate;
    return rate >= 1 || (rate > 0 && Math.random() < rate);
  }

  private sendSpan(span: Span, scope: Scope | undefined): void {
    if (!this.enabled || !span.sampled) return;
    const record = buildSpanRecord({
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      operation: span.operation,
      startTime: span.startTime,
      durationMs: span.durationMs ?? 0,
      status: span.status,
      metadata: withTags(this.currentTags(scope), span.attributesIfAny()),
    });
    this.queue('span', this.hook(this.options.beforeSendSpan, record));
  }

  /** A record through the user's hook: what it returns (null to drop), or the record as it was if the hook throws. */
  private hook<R>(fn: ((record: R) => R | null) | undefined, record: R): R | null {
    if (!fn) return record;
    try {
      return fn(record);
    } catch (err) {
      this.options.warn(`a beforeSend hook threw (${(err as Error)?.message ?? err}); the record is sent as it was`);
      return record;
    }
  }

  private queue(kind: 'log' | 'error' | 'span', record: WireLogEntry | WireErrorReport | WireSpan | null): void {
    if (record === null || typeof record !== 'object') this.filteredOut++;
    else this.transport.send(kind, record);
  }

  /** Headers for an outgoing request so the callee joins the active trace. Empty outside a span. */
  traceHeaders(): Record<string, string> {
    const active = activeContext();
    return active?.span ? createTraceHeaders(active.span.spanContext(), active.requestId) : {};
  }

  // ---- prompts ------------------------------------------------------------

  /**
   * A version of a prompt from the project's registry (docs/sdk.md#prompts), by label (default
   * production) or version, cached for `cacheTtlSeconds` (default 60) and refreshed in the
   * background after; with nothing cached and devtrail unreachable, the `fallback` (or a
   * PromptNotAvailableError). Pass it to llmUsage({ prompt }) to link the call to the version.
   */
  getPrompt(name: string, options: GetPromptOptions = {}): Promise<Prompt> {
    const o = this.options;
    this.prompts ??= new PromptCache({ apiKey: o.apiKey, baseUrl: o.baseUrl, fetch: o.fetch, timeoutMs: o.requestTimeoutMs });
    return this.prompts.get(name, options);
  }

  // ---- LLM usage ----------------------------------------------------------

  /** Records one LLM call. The active trace/span ids go into metadata (the record has no id fields). */
  llmUsage(usage: LlmUsageInput): void {
    if (!this.enabled) return;
    try {
      const active = activeContext();
      const span = this.correlation(active);
      this.transport.send(
        'llm',
        buildLlmRecord({
          ...usage,
          metadata: withTags(
            this.currentTags(active?.scope),
            {
              trace_id: span?.traceId,
              span_id: span?.spanId,
              request_id: active?.requestId,
            },
            usage.prompt && ('attributes' in usage.prompt ? usage.prompt.attributes : { 'prompt.name': usage.prompt.name, 'prompt.version': usage.prompt.version }),
            usage.metadata,
          ),
        }),
      );
    } catch {
      // see class comment
    }
  }

  // ---- scores ----------------------------------------------------------------

  /**
   * Records one score (docs/sdk.md#scores). Without a call, trace, session or user it scores the
   * active trace; with none of those either, nothing is sent. Fields are cut to the receiver's
   * bounds; a value that is not a finite number, a string or a boolean sends nothing.
   */
  score(input: ScoreInput): void {
    if (!this.enabled) return;
    try {
      const record = buildScoreRecord(input, this.correlation(activeContext()));
      if (record) this.transport.send('score', record);
    } catch {
      // see class comment
    }
  }

  /** A user's thumbs up or down on a call, a trace or a session: the boolean score user_feedback, with their comment. */
  userFeedback(input: FeedbackInput): void {
    const { positive, ...rest } = input;
    this.score({ ...rest, name: USER_FEEDBACK, value: positive, dataType: 'boolean' });
  }

  // ---- metrics ---------------------------------------------------------------

  /** Records one metric data point (docs/sdk.md#metrics): a gauge's reading, or what a counter added. */
  metric(point: MetricInput): void {
    if (!this.enabled) return;
    try {
      const iso = (t: Date | string | undefined) => (t === undefined ? undefined : new Date(t).toISOString());
      const sum = point.type === 'sum';
      this.transport.send('metric', {
        metric: point.metric,
        type: point.type,
        value: point.value,
        time: iso(point.time) ?? new Date().toISOString(),
        ...(sum ? { temporality: point.temporality ?? 'delta', monotonic: point.monotonic ?? true } : {}),
        ...(point.startTime === undefined ? {} : { start_time: iso(point.startTime) }),
        ...(point.unit === undefined ? {} : { unit: point.unit }),
        ...(point.description === undefined ? {} : { description: point.description }),
        ...(point.attributes === undefined ? {} : { attributes: point.attributes }),
      });
    } catch {
      // see class comment
    }
  }

  // ---- scope: breadcrumbs, user, tags --------------------------------------
  // Inside a traced request these apply to that request only; elsewhere, globally.

  addBreadcrumb(crumb: Breadcrumb): void {
    this.currentScope().addBreadcrumb(crumb);
  }

  /** The user events are about (docs/sdk.md#users): an id, or `{ id, email, username, … }`; null clears it. */
  setUser(user: string | number | User | null): void {
    this.currentScope().setUser(user);
  }

  setTag(key: string, value: TagValue): void {
    this.currentScope().setTag(key, value);
  }

  setTags(tags: Record<string, TagValue>): void {
    for (const [key, value] of Object.entries(tags)) this.setTag(key, value);
  }

  /** A named object on error reports' context (`setContext('order', { id })` -> `context.order`); null removes it. */
  setContext(name: string, context: Record<string, unknown> | null): void {
    this.currentScope().setContext(name, context);
  }

  /** A value on error reports' `context.extra`. */
  setExtra(key: string, value: unknown): void {
    this.currentScope().setExtra(key, value);
  }

  setExtras(extras: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(extras)) this.setExtra(key, value);
  }

  /**
   * Runs `fn` with a scope of its own: what it sets (tags, user, contexts, extras, breadcrumbs)
   * applies to events inside it only. Inside a request it starts as a copy of the request's
   * scope. On Node it follows awaits; in browsers, the synchronous part only.
   */
  withScope<T>(fn: (scope: Scope) => T): T {
    const active = activeContext();
    const scope = active?.scope ? active.scope.clone() : this.createScope();
    return runWithContext({ ...active, scope }, () => fn(scope));
  }

  /** A fresh scope for one request; middleware puts it in the request's context. */
  createScope(): Scope {
    return new Scope(this.options.maxBreadcrumbs);
  }

  private currentScope(): Scope {
    return activeContext()?.scope ?? this.globalScope;
  }

  private currentTags(requestScope: Scope | undefined): Record<string, TagValue> {
    const global = this.globalScope.tags;
    if (!requestScope || isEmpty(requestScope.tags)) return isEmpty(global) ? NO_TAGS : global;
    return { ...global, ...requestScope.tags };
  }

  // ---- release health -----------------------------------------------------

  /** Starts a new session (ending the current one): automatic per process or page with a release (docs/sdk.md#release-health). */
  startSession(): void {
    if (!this.enabled) return;
    this.session?.end();
    this.session = new Session({
      sendSession: (update) => this.transport.send('session', update),
      sessionUser: () => this.globalScope.userId,
    });
  }

  /** Ends the current session: exited, unless an error made it errored or crashed. */
  endSession(): void {
    this.session?.end();
  }

  // ---- delivery -----------------------------------------------------------

  /** Sends everything pending. Resolves false if it did not finish within the timeout. */
  flush(timeoutMs?: number): Promise<boolean> {
    return this.transport.flush(timeoutMs);
  }

  /** Flushes, then stops: later events are dropped. */
  close(timeoutMs?: number): Promise<boolean> {
    this.endSession();
    this.detachBrowser?.();
    this.detachProcess?.();
    return this.transport.close(timeoutMs);
  }

  /** The process is exiting: what is still queued can no longer be sent; it is counted as dropped. */
  dropPendingAtExit(): void {
    this.transport.dropPending('AtExit', 'still queued when the process exited');
  }

  stats(): ClientStats {
    return { ...this.transport.stats(), sampledOut: this.sampledOut, filteredOut: this.filteredOut };
  }

  /** Browser: flush when the page hides; uncaught errors and breadcrumbs recorded without code changes (docs/sdk.md#browser). */
  private attachToPage(): () => void {
    const o = this.options;
    const detach: Array<() => void> = [];
    if (o.browserTracing) {
      const tracing = installBrowserTracing(this, { tracePropagationTargets: o.tracePropagationTargets });
      this.ambientSpan = tracing.activity;
      detach.push(() => tracing.stop());
    }
    detach.push(this.flushWhenPageHides());
    if (o.captureUncaught) detach.push(installGlobalErrorHandlers(this));
    if (o.breadcrumbs) detach.push(installBreadcrumbs((crumb) => this.addBreadcrumb(crumb), o.breadcrumbs));
    return () => {
      for (const d of detach) d();
    };
  }

  private flushWhenPageHides(): () => void {
    const { document: doc, window: win } = globalThis as unknown as { document: Document; window: Window };
    const onHide = (): void => {
      if (doc.visibilityState === 'hidden') void this.flush();
    };
    const onPageHide = (): void => {
      // The page's session ends with the page (a page restored from the back/forward cache starts a new one).
      this.endSession();
      void this.flush();
    };
    const onPageShow = (e: Event): void => {
      if ((e as PageTransitionEvent).persisted && this.options.autoSessionTracking && this.options.release) this.startSession();
    };
    doc.addEventListener('visibilitychange', onHide);
    win.addEventListener('pagehide', onPageHide);
    win.addEventListener('pageshow', onPageShow);
    return () => {
      win.removeEventListener('pageshow', onPageShow);
      doc.removeEventListener('visibilitychange', onHide);
      win.removeEventListener('pagehide', onPageHide);
    };
  }
}

export function createClient(options?: ClientOptions): DevtrailClient {
  return new DevtrailClient(options);
}
