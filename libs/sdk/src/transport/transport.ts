// Delivery to the receiver (docs/sdk.md#delivery). Every record of every kind waits in one
// FIFO, serialised once when it arrives (so its size is known), and leaves in batches to
// POST /ingest/batch: a batch goes when it reaches `batchSize` records or `maxBatchBytes`, when
// its oldest record has waited `flushIntervalMs`, at once for an error report, or on flush().
// Failed requests worth retrying (network error, 5xx, 429) go back to the front and the
// whole transport pauses for the backoff or Retry-After delay, since the server is saying
// "not now" to everyone. Every request carries an Idempotency-Key, and a retry is the same
// request (same records, same order, same key), so the receiver writes the same event ids
// and a request that was written after all is never stored twice.
// One bad record never takes a batch down: one too large to send is dropped when it arrives;
// one the receiver refuses is named in its partial-success answer and dropped alone; a whole
// batch answered 400 or 413 is split in halves and resent until the bad record stands alone.
// The FIFO is bounded in bytes and in records; overflow drops the oldest. Every drop is
// counted, by reason.
import { runWithContext } from '../context/context-manager.js';
import { newIdempotencyKey } from '../ids.js';
import { BATCH_PATH, MAX_BATCH_SECTION } from '../limits.js';
import { safeStringify } from '../safe-json.js';
import type { Envelope } from '../wire.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter } from './backoff.js';
import { cancelFlushOnExit, flushOnExit } from './exit-flush.js';

/** The contract's kind ids (libs/kinds); test/contract-conformance holds the sections equal to its table. */
export type IngestKind = 'log' | 'error' | 'span' | 'llm';

/** The batch request's section of each kind (the kinds' plural names). */
export const SECTIONS: Record<IngestKind, string> = { log: 'logs', error: 'errors', span: 'spans', llm: 'llm' };

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  envelope: Envelope;
  /** Records per request, 1..1000. */
  batchSize: number;
  /** Bytes per request (the serialised records); a record larger than this is dropped when it arrives. */
  maxBatchBytes: number;
  flushIntervalMs: number;
  /** Records held while waiting or retrying; beyond it the oldest is dropped. */
  maxQueueSize: number;
  /** Bytes held while waiting or retrying; beyond it the oldest is dropped. */
  maxQueueBytes: number;
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
  queuedBytes: number;
  inFlight: number;
  /** Records accepted by the receiver. */
  sent: number;
  /** Requests sent again. */
  retried: number;
  /** Requests made. */
  requests: number;
  /** Records lost, all reasons. */
  dropped: number;
  droppedQueueFull: number;
  droppedTooLarge: number;
  droppedRejected: number;
  droppedRetriesExhausted: number;
  droppedAfterClose: number;
  droppedAtExit: number;
}

export type DropReason = 'QueueFull' | 'TooLarge' | 'Rejected' | 'RetriesExhausted' | 'AfterClose' | 'AtExit';

export interface TelemetryTransport {
  send(kind: IngestKind, body: object): void;
  flush(timeoutMs?: number): Promise<boolean>;
  close(timeoutMs?: number): Promise<boolean>;
  stats(): TransportStats;
  /** Drops what is queued, counted under the reason (the process is exiting). */
  dropPending(reason: 'AtExit', detail: string): void;
}

interface QueuedRecord {
  kind: IngestKind;
  json: string;
  bytes: number;
  attempts: number;
  /** The Idempotency-Key of the request that carried it, once sent: its retries reuse it. */
  key?: string;
}

type Outcome = { ok: true; rejected: number; reasons: string[] } | { ok: false; retry: boolean; split: boolean; reason: string; retryAfterMs?: number };

/** Browsers cap keepalive bodies at 64 KiB in flight; larger ones go without it. */
export const KEEPALIVE_MAX_BYTES = 60_000;
/** Drop warnings repeat at most this often per reason, with running totals. */
const WARN_INTERVAL_MS = 10_000;

type Timer = ReturnType<typeof setTimeout>;

function unref(timer: Timer): Timer {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

function timeoutSignal(ms: number): AbortSignal | undefined {
  return typeof AbortSignal !== 'undefined' && typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(ms) : undefined;
}

/** UTF-8 length of a string, without a TextEncoder allocation per record. */
function utf8Bytes(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : c >= 0xd800 && c <= 0xdbff ? 0 : 1;
  }
  return n;
}

export class HttpTransport implements TelemetryTransport {
  private readonly queue: QueuedRecord[] = [];
  private queuedBytes = 0;
  /** The oldest waiting record's deadline passed, or an error is waiting: send what there is. */
  private due = false;
  private dueTimer: Timer | undefined;
  private resumeTimer: Timer | undefined;
  private pausedUntil = 0;
  private inFlight = 0;
  private closed = false;
  private readonly flushWaiters = new Set<() => void>();
  private readonly counters: Omit<TransportStats, 'queued' | 'queuedBytes' | 'inFlight'> = {
    sent: 0,
    retried: 0,
    requests: 0,
    dropped: 0,
    droppedQueueFull: 0,
    droppedTooLarge: 0,
    droppedRejected: 0,
    droppedRetriesExhausted: 0,
    droppedAfterClose: 0,
    droppedAtExit: 0,
  };
  private readonly lastWarn: Partial<Record<DropReason, { at: number; count: number }>> = {};
  private readonly batchSize: number;
  private readonly maxConcurrency: number;
  private readonly prefix: string;

  constructor(private readonly opts: TransportOptions) {
    this.batchSize = Math.min(MAX_BATCH_SECTION, Math.max(1, Math.floor(opts.batchSize)));
    this.maxConcurrency = Math.max(1, opts.maxConcurrency ?? 2);
    // The shared fields are the same for every request: serialised once.
    this.prefix = safeStringify(opts.envelope).slice(0, -1);
  }

  send(kind: IngestKind, body: object): void {
    if (this.closed) {
      this.drop('AfterClose', 1, `${kind} sent after close()`);
      return;
    }
    const json = safeStringify(body);
    const bytes = utf8Bytes(json);
    if (bytes > this.opts.maxBatchBytes) {
      this.drop('TooLarge', 1, `a ${kind} record of ${bytes} bytes is larger than maxBatchBytes (${this.opts.maxBatchBytes})`);
      return;
    }
    this.enqueue([{ kind, json, bytes, attempts: 0 }], false);
    // Registered only while work is pending, so idle clients are never pinned in memory.
    flushOnExit(this);
    if (kind === 'error')
      this.due = true; // an error is worth a request of its own now
    else this.armDueTimer();
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
    const left = this.takeAll();
    if (left > 0) this.drop('AfterClose', left, 'still queued when close() timed out');
    return flushed;
  }

  stats(): TransportStats {
    return { queued: this.queue.length, queuedBytes: this.queuedBytes, inFlight: this.inFlight, ...this.counters };
  }

  dropPending(reason: 'AtExit', detail: string): void {
    const n = this.takeAll() + this.inFlight;
    this.clearTimers();
    if (n > 0) this.drop(reason, n, detail);
  }

  private takeAll(): number {
    const n = this.queue.splice(0).length;
    this.queuedBytes = 0;
    return n;
  }

  private idle(): boolean {
    return this.queue.length === 0 && this.inFlight === 0;
  }

  private enqueue(records: QueuedRecord[], atFront: boolean): void {
    if (atFront) this.queue.unshift(...records);
    else this.queue.push(...records);
    for (const r of records) this.queuedBytes += r.bytes;
    let overflow = 0;
    while (this.queue.length > this.opts.maxQueueSize || this.queuedBytes > this.opts.maxQueueBytes) {
      this.queuedBytes -= this.queue.shift()!.bytes;
      overflow++;
    }
    if (overflow > 0)
      this.drop('QueueFull', overflow, `queue full (maxQueueSize ${this.opts.maxQueueSize}, maxQueueBytes ${this.opts.maxQueueBytes}), oldest records dropped`);
  }

  private armDueTimer(): void {
    if (this.dueTimer || this.due) return;
    this.dueTimer = unref(
      setTimeout(() => {
        this.dueTimer = undefined;
        this.due = true;
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

  private ready(): boolean {
    return this.queue.length >= this.batchSize || this.queuedBytes >= this.opts.maxBatchBytes || this.due || this.flushWaiters.size > 0 || this.closed;
  }

  private takeBatch(): QueuedRecord[] | undefined {
    if (this.queue.length === 0) return undefined;
    if (this.queue[0].key) return this.takeRetry();
    if (!this.ready()) return undefined;
    const batch: QueuedRecord[] = [];
    const perSection: Partial<Record<IngestKind, number>> = {};
    let bytes = 0;
    while (this.queue.length > 0 && !this.queue[0].key && batch.length < this.batchSize) {
      const r = this.queue[0];
      if ((perSection[r.kind] ?? 0) >= MAX_BATCH_SECTION || (batch.length > 0 && bytes + r.bytes > this.opts.maxBatchBytes)) break;
      perSection[r.kind] = (perSection[r.kind] ?? 0) + 1;
      bytes += r.bytes;
      batch.push(this.queue.shift()!);
    }
    this.queuedBytes -= bytes;
    if (this.queue.length === 0) this.resetDue();
    return batch;
  }

  private resetDue(): void {
    this.due = false;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueTimer = undefined;
  }

  /** A request to retry: the records at the front that went out together, as they were. */
  private takeRetry(): QueuedRecord[] {
    const { key } = this.queue[0];
    let n = 0;
    while (n < this.queue.length && this.queue[n].key === key) n++;
    const batch = this.queue.splice(0, n);
    for (const r of batch) this.queuedBytes -= r.bytes;
    return batch;
  }

  private async dispatch(batch: QueuedRecord[]): Promise<void> {
    this.inFlight++;
    let outcome: Outcome;
    try {
      outcome = await this.post(batch);
    } catch (err) {
      outcome = { ok: false, retry: false, split: false, reason: `could not send: ${(err as Error)?.message ?? err}` };
    }
    this.inFlight--;
    const n = batch.length;
    if (outcome.ok) {
      this.counters.sent += n - outcome.rejected;
      if (outcome.rejected > 0) this.drop('Rejected', outcome.rejected, `refused by the receiver: ${outcome.reasons.join('; ')}`);
    } else if (outcome.split && n > 1) this.resendHalves(batch);
    else if (outcome.split) this.drop(outcome.reason.startsWith('HTTP 413') ? 'TooLarge' : 'Rejected', 1, `${batch[0].kind}: ${outcome.reason}; not retried`);
    else if (!outcome.retry) this.drop('Rejected', n, `${outcome.reason}; not retried`);
    else this.retryLater(batch, outcome.reason, outcome.retryAfterMs);
    this.pump();
  }

  /** A batch refused whole (400, 413): its halves go again as two new requests, so the bad record ends up alone. */
  private resendHalves(batch: QueuedRecord[]): void {
    const half = Math.ceil(batch.length / 2);
    const first = newIdempotencyKey();
    const second = newIdempotencyKey();
    this.enqueue(
      batch.map((r, i) => ({ ...r, key: i < half ? first : second })),
      true,
    );
  }

  private retryLater(batch: QueuedRecord[], reason: string, retryAfterMs: number | undefined): void {
    const attempt = Math.max(...batch.map((r) => r.attempts)) + 1;
    if (attempt > this.opts.maxRetries) {
      this.drop('RetriesExhausted', batch.length, `gave up after ${attempt} attempts (${reason})`);
      return;
    }
    for (const r of batch) r.attempts = attempt;
    const delay = retryAfterMs ?? backoffDelay(attempt, this.opts.initialBackoffMs, this.opts.maxBackoffMs, this.opts.random);
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + delay);
    this.counters.retried++;
    this.due = true; // don't wait for a full batch again
    this.enqueue(batch, true);
  }

  /** The request body, assembled from the records' JSON: nothing is serialised twice. */
  private bodyOf(batch: QueuedRecord[]): string {
    const sections = new Map<IngestKind, string[]>();
    for (const r of batch) {
      const list = sections.get(r.kind);
      if (list) list.push(r.json);
      else sections.set(r.kind, [r.json]);
    }
    let body = this.prefix;
    for (const [kind, list] of sections) body += `${body.length > 1 ? ',' : ''}"${SECTIONS[kind]}":[${list.join(',')}]`;
    return `${body}}`;
  }

  private async post(batch: QueuedRecord[]): Promise<Outcome> {
    const json = this.bodyOf(batch);
    const key = batch[0].key ?? newIdempotencyKey();
    for (const r of batch) r.key = key;
    this.counters.requests++;
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
      res = await runWithContext({ internal: true }, () => this.opts.fetch(this.opts.baseUrl + BATCH_PATH, init));
    } catch (err) {
      return { ok: false, retry: true, split: false, reason: `network error: ${(err as Error)?.message ?? err}` };
    }
    // Read the body so the connection can be reused, and to quote it in warnings.
    const text = await res.text().catch(() => '');
    if (res.ok) {
      const answer = parseAnswer(text);
      return { ok: true, rejected: Math.min(batch.length, answer.rejected), reasons: answer.reasons };
    }
    const reason = `HTTP ${res.status}${text ? ` ${text.slice(0, 200)}` : ''}`;
    if (res.status === 400 || res.status === 413) return { ok: false, retry: false, split: true, reason };
    if (!isRetryableStatus(res.status)) return { ok: false, retry: false, split: false, reason };
    return { ok: false, retry: true, split: false, reason, retryAfterMs: parseRetryAfter(res.headers.get('retry-after')) };
  }

  private drop(reason: DropReason, count: number, detail: string): void {
    this.counters.dropped += count;
    this.counters[`dropped${reason}`] += count;
    const now = Date.now();
    const last = this.lastWarn[reason];
    // At most one warning per reason per interval, each saying how many went since the last one.
    if (last === undefined || now - last.at >= WARN_INTERVAL_MS) {
      const since = last ? this.counters[`dropped${reason}`] - last.count : count;
      this.lastWarn[reason] = { at: now, count: this.counters[`dropped${reason}`] };
      this.opts.warn(
        `dropped ${since} record(s): ${detail} (${this.counters[`dropped${reason}`]} dropped for this reason, ${this.counters.dropped} in total; client.stats() has every count)`,
      );
    }
  }

  private clearTimers(): void {
    this.resetDue();
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
  }
}

function parseAnswer(text: string): { rejected: number; reasons: string[] } {
  try {
    const a = JSON.parse(text) as { rejected?: unknown; reasons?: unknown };
    const rejected = typeof a.rejected === 'number' && a.rejected > 0 ? Math.floor(a.rejected) : 0;
    return { rejected, reasons: Array.isArray(a.reasons) ? a.reasons.map(String) : [] };
  } catch {
    return { rejected: 0, reasons: [] };
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
      queuedBytes: 0,
      inFlight: 0,
      sent: 0,
      retried: 0,
      requests: 0,
      dropped: 0,
      droppedQueueFull: 0,
      droppedTooLarge: 0,
      droppedRejected: 0,
      droppedRetriesExhausted: 0,
      droppedAfterClose: 0,
      droppedAtExit: 0,
    };
  }
}
