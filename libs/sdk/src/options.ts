// Client options, their defaults and the environment variables they fall back to.
import type { BreadcrumbOptions } from './browser/breadcrumbs.js';
import { isBrowser, isServerless, readEnv } from './env.js';
import { MAX_BATCH_SECTION, MAX_BODY_BYTES } from './limits.js';
import { KEEPALIVE_MAX_BYTES } from './transport/transport.js';
import type { TagValue } from './types.js';
import type { WireErrorReport, WireLogEntry, WireSpan } from './wire.js';

export interface ClientOptions {
  /** Project key, `dt_` + 24 hex. Without one the client is a silent no-op. Env: DEVTRAIL_API_KEY. */
  apiKey?: string;
  /** Where the devtrail receiver listens, e.g. https://devtrail.example.com. Env: DEVTRAIL_BASE_URL. */
  baseUrl?: string;
  /** Env: DEVTRAIL_SERVICE. Default "unknown". */
  service?: string;
  /** Env: DEVTRAIL_ENVIRONMENT, then NODE_ENV. Default "production". */
  environment?: string;
  /** At most 128 characters. Env: DEVTRAIL_RELEASE. */
  release?: string;
  /** Set false to turn the client into a no-op even with a key. */
  enabled?: boolean;
  /** Records per request, of every kind together, 1..1000. Default 500. */
  batchSize?: number;
  /** Bytes per request (serialised records). Default 512 KiB, 60 KB in browsers (fetch keepalive's limit); a larger record is dropped. */
  maxBatchBytes?: number;
  /** Longest a record waits before its batch is sent (an error report is sent at once). Default 5000 ms, 1000 ms on serverless platforms. */
  flushIntervalMs?: number;
  /** Records kept while batching or retrying; the oldest is dropped beyond this. Default 10000. */
  maxQueueSize?: number;
  /** Bytes kept while batching or retrying; the oldest is dropped beyond this. Default 16 MiB, 1 MiB in browsers. */
  maxQueueBytes?: number;
  /** How long a request is retried (network errors, 5xx, 429) from its first attempt, in ms. Default 900000 (15 minutes). */
  retryForMs?: number;
  /** Retries of one request at most, besides `retryForMs`. Default: no limit. */
  maxRetries?: number;
  /**
   * Keep unsent error reports through a page close or a restart (docs/sdk.md#outages): in browsers
   * localStorage (default on), on Node a directory (`{ dir }`, default off). `maxBytes` bounds it
   * (default 256 KiB in browsers, 4 MiB on Node).
   */
  persistErrors?: boolean | { dir?: string; maxBytes?: number };
  /** First backoff delay, doubled per retry with jitter. Default 500 ms. */
  initialBackoffMs?: number;
  /** Backoff ceiling (Retry-After may exceed it). Default 30000 ms. */
  maxBackoffMs?: number;
  /** Per-request timeout. Default 10000 ms. */
  requestTimeoutMs?: number;
  /** Breadcrumbs kept per scope. Default 50. */
  maxBreadcrumbs?: number;
  /** Force serverless behaviour (short batches). Default: detected from the platform's env vars. */
  serverless?: boolean;
  /** Send with fetch keepalive so requests survive page unload. Default: true in browsers. */
  keepalive?: boolean;
  /** Tags merged into every record's metadata (errors: context). */
  tags?: Record<string, TagValue>;
  /** Also print log calls to the console. Default false. */
  console?: boolean;
  /** Receives the SDK's own warnings (drops, bad key). Default: console.warn. */
  onWarning?: (message: string) => void;
  /** Custom fetch, e.g. for tests or proxies. Default: global fetch. */
  fetch?: typeof fetch;
  /** Node: outgoing fetch/undici and http/https requests inside a span carry traceparent and get a client span. Default true. */
  traceOutgoing?: boolean;
  /** Share of error reports sent, 0..1 (decided per report). Default 1. */
  sampleRate?: number;
  /** Changes an error report before it is queued, or drops it (return null). `error` is what was captured. */
  beforeSend?: (report: WireErrorReport, hint: { error: unknown }) => WireErrorReport | null;
  /** Changes a finished span before it is queued, or drops it (return null). */
  beforeSendSpan?: (span: WireSpan) => WireSpan | null;
  /** Changes a log entry before it is queued, or drops it (return null). */
  beforeSendLog?: (log: WireLogEntry) => WireLogEntry | null;
  /** Breadcrumbs recorded automatically: in browsers clicks, console, fetch/XHR and navigation; on Node console and outgoing HTTP. false turns all off. Default true. */
  breadcrumbs?: boolean | BreadcrumbOptions;
  /** Browser: page-load spans with web vitals, route-change spans, click and request spans (docs/sdk.md#browser-tracing). Default true. */
  browserTracing?: boolean;
  /** Browser: where the page's fetch and XHR calls carry traceparent besides its own origin: origins or URL prefixes, or patterns. Default [] (same origin only). */
  tracePropagationTargets?: Array<string | RegExp>;
  /** Share of new traces whose spans are sent, 0..1 (a trace joined from a caller follows its sampled flag). Default 1. */
  tracesSampleRate?: number;
  /** Release health: a session per Node process or browser page, sent with its release (docs/sdk.md#release-health). Only with a release. Default true. */
  autoSessionTracking?: boolean;
  /** Node: report uncaught exceptions and unhandled rejections, and flush before the process exits as Node would. Default true. */
  captureUncaught?: boolean;
  /** Node: flush on SIGTERM and SIGINT before the process ends as it would have. Default true. */
  flushOnSignals?: boolean;
  /** The longest a crash or a signal waits for the flush. Default 2000 ms. */
  shutdownTimeoutMs?: number;
}

export interface ResolvedOptions {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  service: string;
  environment: string;
  release: string | undefined;
  enabled: boolean;
  batchSize: number;
  maxBatchBytes: number;
  flushIntervalMs: number;
  maxQueueSize: number;
  maxQueueBytes: number;
  retryForMs: number;
  maxRetries: number;
  persistErrors: false | { dir?: string; maxBytes: number };
  initialBackoffMs: number;
  maxBackoffMs: number;
  requestTimeoutMs: number;
  maxBreadcrumbs: number;
  serverless: boolean;
  keepalive: boolean;
  tags: Record<string, TagValue>;
  console: boolean;
  warn: (message: string) => void;
  fetch: typeof fetch | undefined;
  traceOutgoing: boolean;
  sampleRate: number;
  beforeSend: ClientOptions['beforeSend'];
  beforeSendSpan: ClientOptions['beforeSendSpan'];
  beforeSendLog: ClientOptions['beforeSendLog'];
  breadcrumbs: false | BreadcrumbOptions;
  browserTracing: boolean;
  tracePropagationTargets: Array<string | RegExp>;
  tracesSampleRate: number;
  autoSessionTracking: boolean;
  captureUncaught: boolean;
  flushOnSignals: boolean;
  shutdownTimeoutMs: number;
}

// Lower-case hex, as the receiver generates and checks keys.
export const API_KEY_PATTERN = /^dt_[0-9a-f]{24}$/;

function num(value: number | undefined, fallback: number, min = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(min, value) : fallback;
}

/** Every option's name, to warn about a misspelt one. */
const KNOWN: ReadonlySet<string> = new Set<keyof ClientOptions>([
  'apiKey',
  'baseUrl',
  'service',
  'environment',
  'release',
  'enabled',
  'batchSize',
  'maxBatchBytes',
  'flushIntervalMs',
  'maxQueueSize',
  'maxQueueBytes',
  'retryForMs',
  'maxRetries',
  'persistErrors',
  'initialBackoffMs',
  'maxBackoffMs',
  'requestTimeoutMs',
  'maxBreadcrumbs',
  'serverless',
  'keepalive',
  'tags',
  'console',
  'onWarning',
  'fetch',
  'traceOutgoing',
  'sampleRate',
  'beforeSend',
  'beforeSendSpan',
  'beforeSendLog',
  'breadcrumbs',
  'browserTracing',
  'tracePropagationTargets',
  'tracesSampleRate',
  'autoSessionTracking',
  'captureUncaught',
  'flushOnSignals',
  'shutdownTimeoutMs',
]);

/** Browsers keep unsent error reports in localStorage unless told not to; Node only where given a directory. */
function resolvePersist(option: ClientOptions['persistErrors'], browser: boolean): ResolvedOptions['persistErrors'] {
  const o = typeof option === 'object' && option !== null ? option : {};
  const on = browser ? option !== false : typeof o.dir === 'string' && o.dir !== '';
  if (!on) return false;
  return { dir: o.dir, maxBytes: Math.floor(num(o.maxBytes, browser ? 256 * 1024 : 4 * 1024 * 1024, 1024)) };
}

export function resolveOptions(options: ClientOptions = {}): ResolvedOptions {
  const serverless = options.serverless ?? isServerless();
  const browser = isBrowser();
  const warn = options.onWarning ?? ((message: string) => console.warn(`[devtrail] ${message}`));
  // Outside production builds, a misspelt option is said rather than silently ignored.
  if (readEnv('NODE_ENV') !== 'production') {
    for (const key of Object.keys(options)) if (!KNOWN.has(key)) warn(`unknown option "${key}" is ignored (docs/sdk.md#client-options)`);
  }
  const apiKey = options.apiKey ?? readEnv('DEVTRAIL_API_KEY');
  const baseUrl = (options.baseUrl ?? readEnv('DEVTRAIL_BASE_URL'))?.replace(/\/+$/, '');
  return {
    apiKey,
    baseUrl,
    service: options.service ?? readEnv('DEVTRAIL_SERVICE') ?? 'unknown',
    environment: options.environment ?? readEnv('DEVTRAIL_ENVIRONMENT') ?? readEnv('NODE_ENV') ?? 'production',
    release: options.release ?? readEnv('DEVTRAIL_RELEASE'),
    enabled: options.enabled ?? true,
    batchSize: Math.min(MAX_BATCH_SECTION, Math.floor(num(options.batchSize, 500, 1))),
    maxBatchBytes: Math.min(MAX_BODY_BYTES / 2, Math.floor(num(options.maxBatchBytes, browser ? KEEPALIVE_MAX_BYTES : 512 * 1024, 1024))),
    flushIntervalMs: num(options.flushIntervalMs, serverless ? 1000 : 5000, 1),
    maxQueueSize: Math.floor(num(options.maxQueueSize, 10_000, 1)),
    maxQueueBytes: Math.floor(num(options.maxQueueBytes, browser ? 1024 * 1024 : 16 * 1024 * 1024, 1024)),
    retryForMs: num(options.retryForMs, 15 * 60_000),
    maxRetries: Math.floor(num(options.maxRetries, Number.POSITIVE_INFINITY)),
    persistErrors: resolvePersist(options.persistErrors, browser),
    initialBackoffMs: num(options.initialBackoffMs, 500, 1),
    maxBackoffMs: num(options.maxBackoffMs, 30_000, 1),
    requestTimeoutMs: num(options.requestTimeoutMs, 10_000, 1),
    maxBreadcrumbs: Math.floor(num(options.maxBreadcrumbs, 50)),
    serverless,
    keepalive: options.keepalive ?? browser,
    tags: { ...options.tags },
    console: options.console ?? false,
    warn,
    // Looked up per call so a fetch patched in later (tests, instrumentation) is used.
    fetch: options.fetch ?? (typeof fetch === 'function' ? (input, init) => globalThis.fetch(input, init) : undefined),
    traceOutgoing: options.traceOutgoing ?? true,
    sampleRate: Math.min(1, num(options.sampleRate, 1)),
    beforeSend: options.beforeSend,
    beforeSendSpan: options.beforeSendSpan,
    beforeSendLog: options.beforeSendLog,
    breadcrumbs: options.breadcrumbs === false ? false : options.breadcrumbs === true || options.breadcrumbs === undefined ? {} : options.breadcrumbs,
    browserTracing: options.browserTracing ?? true,
    tracePropagationTargets: Array.isArray(options.tracePropagationTargets) ? [...options.tracePropagationTargets] : [],
    tracesSampleRate: Math.min(1, num(options.tracesSampleRate, 1)),
    autoSessionTracking: options.autoSessionTracking ?? true,
    captureUncaught: options.captureUncaught ?? true,
    flushOnSignals: options.flushOnSignals ?? true,
    shutdownTimeoutMs: num(options.shutdownTimeoutMs, 2000),
  };
}
