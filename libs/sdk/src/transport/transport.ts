// Delivery to the receiver (docs/sdk.md#delivery). Records are serialised once when they arrive
// (so their size is known) and leave in requests to POST /ingest/batch:
// - logs, spans and LLM records wait in one FIFO and leave in batches: when a batch reaches
//   `batchSize` records or `maxBatchBytes`, when its oldest record has waited `flushIntervalMs`,
//   or on flush();
// - an error report goes at once, in a request of its own with the other error reports waiting,
//   and is the last thing dropped when the queue is full. Where an offline store is configured
//   (request-store.ts) that request is written there before it is first sent.
// Every request carries an Idempotency-Key, and a retry is the same request (same records, same
// order, same key), so the receiver writes the same event ids and a request that was written
// after all is never stored twice. Failed requests worth retrying (network error, 5xx, 429) are
// retried with backoff for `retryForMs` (minutes: an outage of the receiver is outlived), and
// the whole transport pauses for the delay, since the server is saying "not now" to everyone.
// One bad record never takes a batch down: one too large to send is dropped when it arrives;
// one the receiver refuses is named in its partial-success answer and dropped alone; a whole
// batch answered 400 or 413 is split in halves and resent until the bad record stands alone.
// Everything held is bounded in bytes and in records; overflow drops the oldest, logs and spans
// before error reports. Every drop is counted by reason, and reported to the receiver once it
// answers again (drop-report.ts).
import { runWithContext } from '../context/context-manager.js';
import { newIdempotencyKey } from '../ids.js';
import { BATCH_PATH, MAX_BATCH_SECTION } from '../limits.js';
import { safeStringify } from '../safe-json.js';
import type { Envelope } from '../wire.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter } from './backoff.js';
import { bodyOf, bodyPrefix, recordOf, type IngestKind, type QueuedRecord } from './batch-body.js';
import { dropReport, type DropCounts, type DropReason } from './drop-report.js';
import { cancelFlushOnExit, flushOnExit } from './exit-flush.js';
import { STORED_MAX_AGE_MS, type RequestStore } from './request-store.js';

export { SECTIONS, type IngestKind } from './batch-body.js';
export type { DropReason } from './drop-report.js';

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
  /** Retries of one request at most (besides `retryForMs`). */
  maxRetries: number;
  /** How long a request is retried from its first attempt before its records are dropped. */
  retryForMs: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  requestTimeoutMs: number;
  /** Browser: let requests outlive the page (fetch keepalive). */
  keepalive: boolean;
  fetch: typeof fetch;
  warn: (message: string) => void;
  /** Where error reports wait out the page or the process (request-store.ts). */
  store?: RequestStore;
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
  /** Records held in the offline store (sent on the next page load or start if not before). */
  persisted: number;
  /** Records lost, all reasons. */
  dropped: number;
  droppedQueueFull: number;
  droppedTooLarge: number;
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
  /** Drops what is queued, counted under the reason (the process is exiting); what the offline store holds stays there. */
  dropPending(reason: 'AtExit', detail: string): void;
}

/** A request with its key: sealed, so every attempt sends the same body. */
interface PendingRequest {
  key: string;
  prefix: string;
  records: QueuedRecord[];
  bytes: number;
  /** Holds error reports: sent at once, dropped last, kept in the offline store. */
  essential: boolean;
  /** Retries so far. */
  attempts: number;
  /** When it was first sent (epoch ms); 0 before. */
  firstTry: number;
  sending: boolean;
  stored: boolean;
  storedAt?: number;
}

type Outcome = { ok: true; rejected: number; reasons: string[] } | { ok: false; retry: boolean; split: boolean; reason: string; retryAfterMs?: number };

/** Browsers cap keepalive bodies at 64 KiB in flight; larger ones go without it. */
export const KEEPALIVE_MAX_BYTES = 60_000;
/** Drop warnings repeat at most this often per reason, with running totals. */
const WARN_INTERVAL_MS = 10_000;
/** Error reports and session updates (release health): sent at once, dropped last, kept offline. */
const ESSENTIAL: ReadonlySet<IngestKind> = new Set<IngestKind>(['error', 'session']);

type Timer = ReturnType<typeof setTimeout>;

function unref(timer: Timer): Timer {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

function timeoutSignal(ms: number): AbortSignal | undefined {
  return typeof AbortSignal !== 'undefined' && typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(ms) : undefined;
}

const sum = (records: readonly QueuedRecord[]): number => records.reduce((n, r) => n + r.bytes, 0);

export class HttpTransport implements TelemetryTransport {
  /** Logs, spans and LLM records not yet in a request. */
  private readonly queue: QueuedRecord[] = [];
  private queueBytes = 0;
  /** Sealed requests: error reports waiting, requests in flight, requests waiting for a retry; oldest first. */
  private readonly requests: PendingRequest[] = [];
  private requestRecords = 0;
  private requestBytes = 0;
  /** The oldest waiting record's deadline passed: send what there is. */
  private due = false;
  private dueTimer: Timer | undefined;
  private resumeTimer: Timer | undefined;
  private pausedUntil = 0;
  private inFlight = 0;
  private closed = false;
  private readonly flushWaiters = new Set<() => void>();
  private readonly counters: Omit<TransportStats, 'queued' | 'queuedBytes' | 'inFlight' | 'persisted'> = {
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
  /** The counts the last drop report to the receiver went up to. */
  private reported: DropCounts = {};
  private readonly lastWarn: Partial<Record<DropReason, { at: number; count: number }>> = {};
  private readonly batchSize: number;
  private readonly maxConcurrency: number;
  private readonly prefix: string;

  constructor(private readonly opts: TransportOptions) {
    this.batchSize = Math.min(MAX_BATCH_SECTION, Math.max(1, Math.floor(opts.batchSize)));
    this.maxConcurrency = Math.max(1, opts.maxConcurrency ?? 2);
    // The shared fields are the same for every request: serialised once.
    this.prefix = bodyPrefix(opts.envelope);
    this.restore();
  }

  send(kind: IngestKind, body: object): void {
    if (this.closed) this.drop('AfterClose', 1, `${kind} sent after close()`);
    else this.accept(kind, body);
  }

  private accept(kind: IngestKind, body: object): void {
    const record = recordOf(kind, safeStringify(body));
    if (record.bytes > this.opts.maxBatchBytes) {
      this.drop('TooLarge', 1, `a ${kind} record of ${record.bytes} bytes is larger than maxBatchBytes (${this.opts.maxBatchBytes})`);
      return;
    }
    if (ESSENTIAL.has(kind)) this.seal(record);
    else {
      this.queue.push(record);
      this.queueBytes += record.bytes;
      this.armDueTimer();
    }
    this.bound();
    // Registered only while work is pending, so idle clients are never pinned in memory.
    flushOnExit(this);
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
    let queued = this.queue.length;
    let queuedBytes = this.queueBytes;
    let persisted = 0;
    for (const r of this.requests) {
      if (r.stored) persisted += r.records.length;
      if (r.sending) continue;
      queued += r.records.length;
      queuedBytes += r.bytes;
    }
    return { queued, queuedBytes, inFlight: this.inFlight, persisted, ...this.counters };
  }

  dropPending(reason: 'AtExit', detail: string): void {
    const n = this.takeAll();
    this.clearTimers();
    if (n > 0) this.drop(reason, n, detail);
  }

  /** Empties the queue; returns how many records are lost (what the offline store holds is not: it goes on the next start). */
  private takeAll(): number {
    let lost = this.queue.splice(0).length;
    this.queueBytes = 0;
    for (const r of this.requests.splice(0)) if (!r.stored) lost += r.records.length;
    this.requestRecords = this.requestBytes = 0;
    return lost;
  }

  private idle(): boolean {
    return this.queue.length === 0 && this.requests.length === 0 && this.inFlight === 0;
  }

  /** Requests an earlier page or process stored and did not get answered: sent again as they were. */
  private restore(): void {
    const store = this.opts.store;
    if (!store) return;
    const now = Date.now();
    for (const s of store.load()) {
      if (now - s.at > STORED_MAX_AGE_MS) {
        store.remove(s.key);
        this.drop('RetriesExhausted', s.records.length, 'stored longer than the receiver remembers an Idempotency-Key (24 h)');
        continue;
      }
      const records = s.records.map(([kind, json]) => recordOf(kind, json));
      this.add({ key: s.key, prefix: s.prefix, records, bytes: sum(records), essential: true, attempts: 0, firstTry: 0, sending: false, stored: true, storedAt: s.at });
    }
    if (this.requests.length > 0) {
      flushOnExit(this);
      unref(setTimeout(() => this.pump(), 0));
    }
  }

  /** An error report joins the newest error request not yet sent, or starts one. */
  private seal(record: QueuedRecord): void {
    const last = this.requests.at(-1);
    const joins =
      last?.essential &&
      !last.sending &&
      last.firstTry === 0 &&
      last.prefix === this.prefix &&
      last.records.length < this.batchSize &&
      last.bytes + record.bytes <= this.opts.maxBatchBytes &&
      last.records.filter((r) => r.kind === record.kind).length < MAX_BATCH_SECTION;
    if (joins) {
      last.records.push(record);
      last.bytes += record.bytes;
      this.requestRecords++;
      this.requestBytes += record.bytes;
      this.persist(last);
      return;
    }
    const request: PendingRequest = {
      key: newIdempotencyKey(),
      prefix: this.prefix,
      records: [record],
      bytes: record.bytes,
      essential: true,
      attempts: 0,
      firstTry: 0,
      sending: false,
      stored: false,
    };
    this.add(request);
    this.persist(request);
  }

  private add(request: PendingRequest, at = this.requests.length): void {
    this.requests.splice(at, 0, request);
    this.requestRecords += request.records.length;
    this.requestBytes += request.bytes;
  }

  private remove(request: PendingRequest): number {
    const i = this.requests.indexOf(request);
    if (i >= 0) {
      this.requests.splice(i, 1);
      this.requestRecords -= request.records.length;
      this.requestBytes -= request.bytes;
    }
    if (request.stored) this.opts.store?.remove(request.key);
    request.stored = false;
    return i;
  }

  /** Written before it is sent (and again when it grows before that), so no page close or crash can lose or double it. */
  private persist(request: PendingRequest): void {
    const store = this.opts.store;
    if (!store || !request.essential) return;
    request.storedAt ??= Date.now();
    store.save({ key: request.key, prefix: request.prefix, records: request.records.map((r) => [r.kind, r.json]), at: request.storedAt });
    request.stored = true;
  }

  /** Keeps what is held within maxQueueSize and maxQueueBytes: the oldest logs and spans go first, error reports last, nothing in flight. */
  private bound(): void {
    let overflow = 0;
    const over = () => this.queue.length + this.requestRecords > this.opts.maxQueueSize || this.queueBytes + this.requestBytes > this.opts.maxQueueBytes;
    while (over() && this.queue.length > 0) {
      this.queueBytes -= this.queue.shift()!.bytes;
      overflow++;
    }
    for (const essential of [false, true]) {
      while (over()) {
        const victim = this.requests.find((r) => r.essential === essential && !r.sending);
        if (!victim) break;
        this.remove(victim);
        overflow += victim.records.length;
      }
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
    if (this.queue.length > 0 || this.requests.length > 0) {
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) this.scheduleResume(wait);
      else
        while (this.inFlight < this.maxConcurrency) {
          const request = this.requests.find((r) => !r.sending) ?? this.takeBatch();
          if (!request) break;
          void this.dispatch(request);
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
    return this.queue.length >= this.batchSize || this.queueBytes >= this.opts.maxBatchBytes || this.due || this.flushWaiters.size > 0 || this.closed;
  }

  /** The next batch of logs and spans, as a request of its own, once one is due. */
  private takeBatch(): PendingRequest | undefined {
    if (this.queue.length === 0 || !this.ready()) return undefined;
    const records: QueuedRecord[] = [];
    const perSection: Partial<Record<IngestKind, number>> = {};
    let bytes = 0;
    while (this.queue.length > 0 && records.length < this.batchSize) {
      const r = this.queue[0];
      if ((perSection[r.kind] ?? 0) >= MAX_BATCH_SECTION || (records.length > 0 && bytes + r.bytes > this.opts.maxBatchBytes)) break;
      perSection[r.kind] = (perSection[r.kind] ?? 0) + 1;
      bytes += r.bytes;
      records.push(this.queue.shift()!);
    }
    this.queueBytes -= bytes;
    if (this.queue.length === 0) this.resetDue();
    const request: PendingRequest = {
      key: newIdempotencyKey(),
      prefix: this.prefix,
      records,
      bytes,
      essential: false,
      attempts: 0,
      firstTry: 0,
      sending: false,
      stored: false,
    };
    this.add(request);
    return request;
  }

  private resetDue(): void {
    this.due = false;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueTimer = undefined;
  }

  private async dispatch(request: PendingRequest): Promise<void> {
    request.sending = true;
    request.firstTry ||= Date.now();
    this.inFlight++;
    let outcome: Outcome;
    try {
      outcome = await this.post(request);
    } catch (err) {
      outcome = { ok: false, retry: false, split: false, reason: `could not send: ${(err as Error)?.message ?? err}` };
    }
    this.inFlight--;
    request.sending = false;
    if (!this.requests.includes(request)) {
      // Let go while in flight (close() or the process's end): its fate is already counted.
    } else if (outcome.ok) this.delivered(request, outcome.rejected, outcome.reasons);
    else if (outcome.split && request.records.length > 1) this.resendHalves(request);
    else if (outcome.split)
      this.dropRequest(request, outcome.reason.startsWith('HTTP 413') ? 'TooLarge' : 'Rejected', `${request.records[0].kind}: ${outcome.reason}; not retried`);
    else if (!outcome.retry) this.dropRequest(request, 'Rejected', `${outcome.reason}; not retried`);
    else this.retryLater(request, outcome.reason, outcome.retryAfterMs);
    this.pump();
  }

  private delivered(request: PendingRequest, rejected: number, reasons: string[]): void {
    this.remove(request);
    this.counters.sent += request.records.length - rejected;
    if (rejected > 0) this.drop('Rejected', rejected, `refused by the receiver: ${reasons.join('; ')}`);
    // The receiver answers again: say what was lost meanwhile, once.
    const report = dropReport(this.counters, this.reported);
    if (report) {
      this.reported = report.upTo;
      this.accept('log', report.log); // also while close() flushes: it is part of what is pending
    }
  }

  private dropRequest(request: PendingRequest, reason: DropReason, detail: string): void {
    this.remove(request);
    this.drop(reason, request.records.length, detail);
  }

  /** A batch refused whole (400, 413): its halves go again as two new requests, so the bad record ends up alone. */
  private resendHalves(request: PendingRequest): void {
    const at = this.remove(request);
    const half = Math.ceil(request.records.length / 2);
    const halves = [request.records.slice(0, half), request.records.slice(half)].map(
      (records): PendingRequest => ({ ...request, key: newIdempotencyKey(), records, bytes: sum(records), attempts: 0, firstTry: 0, stored: false, storedAt: undefined }),
    );
    halves.forEach((h, i) => {
      this.add(h, Math.max(0, at) + i);
      this.persist(h);
    });
  }

  private retryLater(request: PendingRequest, reason: string, retryAfterMs: number | undefined): void {
    const attempt = request.attempts + 1;
    const delay = retryAfterMs ?? backoffDelay(attempt, this.opts.initialBackoffMs, this.opts.maxBackoffMs, this.opts.random);
    const elapsed = Date.now() + delay - request.firstTry;
    if (attempt > this.opts.maxRetries || elapsed > this.opts.retryForMs) {
      this.dropRequest(request, 'RetriesExhausted', `gave up after ${attempt} attempts in ${Math.round((Date.now() - request.firstTry) / 1000)} s (${reason})`);
      return;
    }
    request.attempts = attempt;
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + delay);
    this.counters.retried++;
    this.due = true; // don't wait for a full batch again
  }

  private async post(request: PendingRequest): Promise<Outcome> {
    const json = bodyOf(request.prefix, request.records);
    this.counters.requests++;
    const init: RequestInit = {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.opts.apiKey}`, 'idempotency-key': request.key },
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
      return { ok: true, rejected: Math.min(request.records.length, answer.rejected), reasons: answer.reasons };
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
      persisted: 0,
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
