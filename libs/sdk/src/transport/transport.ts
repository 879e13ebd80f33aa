// Delivery to the ingest endpoints. One FIFO holds every pending event:
// logs wait to be batched (by size or interval), the other kinds go out at
// once. Failed requests that are worth retrying (network error, 5xx, 429)
// go back to the front and the whole transport pauses for the backoff or
// Retry-After delay, since the server is saying "not now" to everyone.
// Every request carries an Idempotency-Key, and a retry is the same request
// (same events, same order, same key), so the receiver writes the same event
// ids and a request that was written after all is never stored twice.
// The FIFO is bounded; overflow drops the oldest event and counts it.
import type { Envelope } from '../wire.js';
import { safeStringify } from '../safe-json.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter } from './backoff.js';
import { cancelFlushOnExit, flushOnExit } from './exit-flush.js';
import { newIdempotencyKey } from '../ids.js';
import { runWithContext } from '../context/context-manager.js';

/** The contract's kind ids (libs/contract kinds.ts); test/contract-conformance holds the paths equal to its table. */
export type IngestKind = 'log' | 'error' | 'span' | 'llm';

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  envelope: Envelope;
  /** Logs per request, 1..1000 (the receiver's limit). */
  batchSize: number;
  flushIntervalMs: number;
  /** Events held while waiting or retrying; beyond it the oldest is dropped. */
  maxQueueSize: number;
  maxRetries: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  requestTimeoutMs: number;
  /** Browser: let requests outlive the page (fetch keepalive). */
  keepalive: boolean;
  fetch: typeof fetch;
  warn: (message: string) => void;
  maxConcurrency?: number;
  random?: () => number;
}

export interface TransportStats {
  queued: number;
  inFlight: number;
  /** Events accepted by the receiver. */
  sent: number;
  /** Retried requests. */
  retried: number;
  /** Events lost, all reasons. */
  dropped: number;
  droppedQueueFull: number;
  droppedRejected: number;
  droppedRetriesExhausted: number;
  droppedAfterClose: number;
  droppedAtExit: number;
}

export interface TelemetryTransport {
  send(kind: IngestKind, body: object): void;
  flush(timeoutMs?: number): Promise<boolean>;
  close(timeoutMs?: number): Promise<boolean>;
  stats(): TransportStats;
  /** Drops what is queued, counted under the reason (the process is exiting). */
  dropPending(reason: 'AtExit', detail: string): void;
}

interface QueuedEvent {
  kind: IngestKind;
  body: object;
  attempts: number;
  /** The Idempotency-Key of the request that carried it, once sent: its retries reuse it. */
  key?: string;
}

interface Batch {
  kind: IngestKind;
  events: QueuedEvent[];
}

type Outcome = { ok: true } | { ok: false; retry: boolean; reason: string; retryAfterMs?: number };
type DropReason = 'QueueFull' | 'Rejected' | 'RetriesExhausted' | 'AfterClose' | 'AtExit';

export const PATHS: Record<IngestKind, string> = {
  log: '/ingest/logs',
  error: '/ingest/errors',
  span: '/ingest/traces',
  llm: '/ingest/llm',
};
/** Browsers cap keepalive bodies at 64 KiB in flight; larger ones go without it. */
const KEEPALIVE_MAX_BYTES = 60_000;
/** Drop warnings repeat at most this often per reason, with running totals. */
const WARN_INTERVAL_MS = 10_000;
export const MAX_LOG_BATCH = 1000;

type Timer = ReturnType<typeof setTimeout>;

function unref(timer: Timer): Timer {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

function timeoutSignal(ms: number): AbortSignal | undefined {
  return typeof AbortSignal !== 'undefined' && typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(ms) : undefined;
}

export class HttpTransport implements TelemetryTransport {
  private readonly queue: QueuedEvent[] = [];
  private logCount = 0;
  private logDeadlinePassed = false;
  private logTimer: Timer | undefined;
  private resumeTimer: Timer | undefined;
  private pausedUntil = 0;
  private inFlight = 0;
  private closed = false;
  private readonly flushWaiters = new Set<() => void>();
  private readonly counters = {
    sent: 0,
    retried: 0,
    dropped: 0,
    droppedQueueFull: 0,
    droppedRejected: 0,
    droppedRetriesExhausted: 0,
    droppedAfterClose: 0,
    droppedAtExit: 0,
  };
  private readonly lastWarnAt: Partial<Record<DropReason, number>> = {};
  private readonly batchSize: number;
  private readonly maxConcurrency: number;

  constructor(private readonly opts: TransportOptions) {
    this.batchSize = Math.min(MAX_LOG_BATCH, Math.max(1, Math.floor(opts.batchSize)));
    this.maxConcurrency = Math.max(1, opts.maxConcurrency ?? 2);
  }

  send(kind: IngestKind, body: object): void {
    if (this.closed) {
      this.drop('AfterClose', 1, `${kind} sent after close()`);
      return;
    }
    this.enqueue([{ kind, body, attempts: 0 }], false);
    // Registered only while work is pending, so idle clients are never pinned in memory.
    flushOnExit(this);
    if (kind === 'log') this.armLogTimer();
    this.pump();
  }

  flush(timeoutMs = 10_000): Promise<boolean> {
    if (this.idle()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.flushWaiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.flushWaiters.add(done);
      this.pump();
    });
  }

  async close(timeoutMs = 10_000): Promise<boolean> {
    this.closed = true;
    const flushed = await this.flush(timeoutMs);
    cancelFlushOnExit(this);
    this.clearTimers();
    const left = this.queue.splice(0).length;
    this.logCount = 0;
    if (left > 0) this.drop('AfterClose', left, 'still queued when close() timed out');
    return flushed;
  }

  stats(): TransportStats {
    return { queued: this.queue.length, inFlight: this.inFlight, ...this.counters };
  }

  dropPending(reason: 'AtExit', detail: string): void {
    const n = this.queue.splice(0).length + this.inFlight;
    this.logCount = 0;
    this.clearTimers();
    if (n > 0) this.drop(reason, n, detail);
  }

  private idle(): boolean {
    return this.queue.length === 0 && this.inFlight === 0;
  }

  private enqueue(events: QueuedEvent[], atFront: boolean): void {
    if (atFront) this.queue.unshift(...events);
    else this.queue.push(...events);
    for (const e of events) if (e.kind === 'log') this.logCount++;
    let overflow = 0;
    while (this.queue.length > this.opts.maxQueueSize) {
      const oldest = this.queue.shift()!;
      if (oldest.kind === 'log') this.logCount--;
      overflow++;
    }
    if (overflow > 0) this.drop('QueueFull', overflow, `queue full (maxQueueSize ${this.opts.maxQueueSize}), oldest events dropped`);
  }

  private armLogTimer(): void {
    if (this.logTimer || this.logDeadlinePassed) return;
    this.logTimer = unref(
      setTimeout(() => {
        this.logTimer = undefined;
        this.logDeadlinePassed = true;
        this.pump();
      }, this.opts.flushIntervalMs),
    );
  }

  private pump(): void {
    if (this.queue.length > 0) {
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) {
        this.scheduleResume(wait);
        return;
      }
      while (this.inFlight < this.maxConcurrency) {
        const batch = this.takeBatch();
        if (!batch) break;
        void this.dispatch(batch);
      }
    }
    if (this.idle()) {
      cancelFlushOnExit(this);
      for (const done of this.flushWaiters) done();
      this.flushWaiters.clear();
    }
  }

  private scheduleResume(wait: number): void {
    if (this.resumeTimer) return;
    this.resumeTimer = unref(
      setTimeout(() => {
        this.resumeTimer = undefined;
        this.pump();
      }, wait),
    );
  }

  private logsReady(): boolean {
    return this.logCount > 0 && (this.logCount >= this.batchSize || this.logDeadlinePassed || this.flushWaiters.size > 0 || this.closed);
  }

  private takeBatch(): Batch | undefined {
    if (this.queue[0]?.key) return this.takeRetry();
    const logsReady = this.logsReady();
    if (logsReady && this.queue[0]?.kind === 'log') return this.takeLogs();
    const index = this.queue.findIndex((e) => e.kind !== 'log');
    if (index >= 0) {
      const [event] = this.queue.splice(index, 1);
      return { kind: event.kind, events: [event] };
    }
    return logsReady ? this.takeLogs() : undefined;
  }

  /** A request to retry: the events at the front that went out together, as they were. */
  private takeRetry(): Batch {
    const { key, kind } = this.queue[0];
    let n = 0;
    while (n < this.queue.length && this.queue[n].key === key) n++;
    const events = this.queue.splice(0, n);
    if (kind === 'log') this.logCount -= n;
    return { kind, events };
  }

  private takeLogs(): Batch {
    const events: QueuedEvent[] = [];
    for (let i = 0; i < this.queue.length && events.length < this.batchSize; ) {
      if (this.queue[i].kind === 'log') events.push(...this.queue.splice(i, 1));
      else i++;
    }
    this.logCount -= events.length;
    if (this.logCount === 0) {
      this.logDeadlinePassed = false;
      if (this.logTimer) clearTimeout(this.logTimer);
      this.logTimer = undefined;
    }
    return { kind: 'log', events };
  }

  private async dispatch(batch: Batch): Promise<void> {
    this.inFlight++;
    let outcome: Outcome;
    try {
      outcome = await this.post(batch);
    } catch (err) {
      outcome = { ok: false, retry: false, reason: `could not send: ${(err as Error)?.message ?? err}` };
    }
    this.inFlight--;
    const n = batch.events.length;
    if (outcome.ok) this.counters.sent += n;
    else if (!outcome.retry) this.drop('Rejected', n, `${batch.kind}: ${outcome.reason}; not retried`);
    else this.retryLater(batch, outcome.reason, outcome.retryAfterMs);
    this.pump();
  }

  private retryLater(batch: Batch, reason: string, retryAfterMs: number | undefined): void {
    const attempt = Math.max(...batch.events.map((e) => e.attempts)) + 1;
    if (attempt > this.opts.maxRetries) {
      this.drop('RetriesExhausted', batch.events.length, `${batch.kind}: gave up after ${attempt} attempts (${reason})`);
      return;
    }
    for (const e of batch.events) e.attempts = attempt;
    const delay = retryAfterMs ?? backoffDelay(attempt, this.opts.initialBackoffMs, this.opts.maxBackoffMs, this.opts.random);
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + delay);
    this.counters.retried++;
    if (batch.kind === 'log') this.logDeadlinePassed = true; // don't wait for a full batch again
    this.enqueue(batch.events, true);
  }

  private async post(batch: Batch): Promise<Outcome> {
    const { envelope } = this.opts;
    const body = batch.kind === 'log' ? { ...envelope, logs: batch.events.map((e) => e.body) } : { ...envelope, ...batch.events[0].body };
    const json = safeStringify(body);
    const key = batch.events[0].key ?? newIdempotencyKey();
    for (const e of batch.events) e.key = key;
    const init: RequestInit = {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.opts.apiKey}`, 'idempotency-key': key },
      body: json,
    };
    if (this.opts.keepalive && json.length <= KEEPALIVE_MAX_BYTES) init.keepalive = true;
    const signal = timeoutSignal(this.opts.requestTimeoutMs);
    if (signal) init.signal = signal;

    let res: Response;
    try {
      // Marked internal, so outgoing-request tracing leaves the SDK's own delivery alone.
      res = await runWithContext({ internal: true }, () => this.opts.fetch(this.opts.baseUrl + PATHS[batch.kind], init));
    } catch (err) {
      return { ok: false, retry: true, reason: `network error: ${(err as Error)?.message ?? err}` };
    }
    // Read the body so the connection can be reused, and to quote it in warnings.
    const text = await res.text().catch(() => '');
    if (res.ok) return { ok: true };
    const reason = `HTTP ${res.status}${text ? ` ${text.slice(0, 200)}` : ''}`;
    if (!isRetryableStatus(res.status)) return { ok: false, retry: false, reason };
    return { ok: false, retry: true, reason, retryAfterMs: parseRetryAfter(res.headers.get('retry-after')) };
  }

  private drop(reason: DropReason, count: number, detail: string): void {
    this.counters.dropped += count;
    this.counters[`dropped${reason}`] += count;
    const now = Date.now();
    const last = this.lastWarnAt[reason];
    if (last === undefined || now - last >= WARN_INTERVAL_MS) {
      this.lastWarnAt[reason] = now;
      this.opts.warn(`dropped ${count} event(s): ${detail} (${this.counters[`dropped${reason}`]} dropped for this reason, ${this.counters.dropped} in total)`);
    }
  }

  private clearTimers(): void {
    if (this.logTimer) clearTimeout(this.logTimer);
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.logTimer = this.resumeTimer = undefined;
  }
}

/** Used when no API key is configured: accepts everything, sends nothing. */
export class NoopTransport implements TelemetryTransport {
  send(): void {}
  flush(): Promise<boolean> {
    return Promise.resolve(true);
  }
  close(): Promise<boolean> {
    return Promise.resolve(true);
  }
  dropPending(): void {}
  stats(): TransportStats {
    return {
      queued: 0,
      inFlight: 0,
      sent: 0,
      retried: 0,
      dropped: 0,
      droppedQueueFull: 0,
      droppedRejected: 0,
      droppedRetriesExhausted: 0,
      droppedAfterClose: 0,
      droppedAtExit: 0,
    };
  }
}
