import { MessageLogError, type OutgoingMessage, type Producer } from '@devtrail/message-log';
import type { Metrics } from '@devtrail/metrics';

// Coalesces concurrent requests into one produce call: while a send is in flight, new
// requests wait and then leave together (like Kafka's linger, without a fixed delay).
// Each request's promise settles when its own messages are acknowledged, or at its
// deadline (its arrival + INGEST_ACK_TIMEOUT_MS), whichever comes first: a request
// never waits longer because others were queued before it. A request answered at its
// deadline may still be written afterwards (clients retry with an Idempotency-Key).
// While the producer is failing (its last send failed), a request is refused at once
// unless no send is in flight, in which case it goes out as the probe.
// Bounded: past `maxPendingEvents` waiting events a request is refused (503).

/**
 * A refusal after the request's messages were handed to the producer (its send failed or its
 * deadline passed in flight): they may be written all the same (docs/api.md, "A 503 retried").
 */
export class SentUnacknowledged extends MessageLogError {
  constructor(message: string) {
    super(message, true);
  }
}

interface Pending {
  topic: string;
  messages: OutgoingMessage[];
  events: number;
  bytes: number;
  settled: boolean;
  /** Taken into a send: from here on its messages may be written whatever the answer. */
  sent: boolean;
  timer: NodeJS.Timeout;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface ProduceQueueOptions {
  maxPendingEvents: number;
  ackTimeoutMs: number;
  maxSendBytes?: number;
  /** Produce latency, failures by reason, acknowledged messages by topic, queue depth (docs/operations.md#metrics). */
  metrics?: Metrics;
}

type FailureReason = 'error' | 'timeout' | 'queue_full' | 'failing';

export class ProduceQueue {
  private queue: Pending[] = [];
  private queuedEvents = 0;
  private sending = false;
  private failing = false;
  private idle: Array<() => void> = [];
  private readonly maxSendBytes: number;

  constructor(
    private readonly producer: Producer,
    private readonly opts: ProduceQueueOptions,
  ) {
    this.maxSendBytes = opts.maxSendBytes ?? 8 * 1024 * 1024;
    const m = opts.metrics?.m;
    if (m) {
      m.produceQueueCapacity.set(opts.maxPendingEvents);
      opts.metrics!.onScrape(() => m.produceQueueEvents.set(this.queuedEvents));
    }
  }

  private failed(reason: FailureReason, requests = 1) {
    this.opts.metrics?.m.kafkaProduceFailures.inc({ reason }, requests);
  }

  /** Events waiting for their acknowledgement. */
  get pending(): number {
    return this.queuedEvents;
  }

  /**
   * Resolves once Kafka acknowledged every message; rejects (retryable) when it failed,
   * at `arrivedAt + ackTimeoutMs`, or at once while the producer is failing.
   * `events` is what the messages carry: the bound counts events.
   */
  enqueue(topic: string, messages: OutgoingMessage[], events = messages.length, arrivedAt = Date.now()): Promise<void> {
    if (this.queuedEvents + events > this.opts.maxPendingEvents) {
      this.failed('queue_full');
      return Promise.reject(new MessageLogError('produce queue full', true));
    }
    if (this.failing && this.sending) {
      this.failed('failing');
      return Promise.reject(new MessageLogError('the event log is failing; not queueing', true));
    }
    const bytes = messages.reduce((n, m) => n + m.value.length, 0);
    return new Promise<void>((resolve, reject) => {
      const wait = Math.max(0, arrivedAt + this.opts.ackTimeoutMs - Date.now());
      const p: Pending = { topic, messages, events, bytes, settled: false, sent: false, resolve, reject, timer: setTimeout(() => this.expire(p), wait) };
      this.queue.push(p);
      this.queuedEvents += events;
      if (!this.sending) void this.pump();
    });
  }

  private settle(p: Pending, err?: unknown) {
    if (p.settled) return;
    p.settled = true;
    clearTimeout(p.timer);
    if (err) p.reject(err);
    else p.resolve();
  }

  /** The deadline passed: answer now; if it was not sent yet, it never will be. */
  private expire(p: Pending) {
    const i = this.queue.indexOf(p);
    if (i >= 0) {
      this.queue.splice(i, 1);
      this.queuedEvents -= p.events;
    }
    if (!p.settled) this.failed('timeout');
    const message = `no acknowledgement from the event log within ${this.opts.ackTimeoutMs} ms`;
    this.settle(p, p.sent ? new SentUnacknowledged(message) : new MessageLogError(message, true));
  }

  private async pump(): Promise<void> {
    this.sending = true;
    while (this.queue.length > 0) {
      const take: Pending[] = [];
      let bytes = 0;
      while (this.queue.length > 0 && (take.length === 0 || bytes + this.queue[0].bytes <= this.maxSendBytes)) {
        const p = this.queue.shift()!;
        p.sent = true;
        take.push(p);
        bytes += p.bytes;
      }
      const byTopic = new Map<string, OutgoingMessage[]>();
      for (const p of take) {
        const list = byTopic.get(p.topic);
        if (list) for (const m of p.messages) list.push(m);
        else byTopic.set(p.topic, p.messages.slice());
      }
      const m = this.opts.metrics?.m;
      const t0 = performance.now();
      try {
        await this.producer.send([...byTopic].map(([topic, messages]) => ({ topic, messages })));
        this.failing = false;
        m?.kafkaProduceDuration.observe({ outcome: 'ok' }, (performance.now() - t0) / 1000);
        if (m) for (const [topic, messages] of byTopic) m.kafkaProducedMessages.inc({ topic }, messages.length);
        for (const p of take) this.settle(p);
      } catch (err) {
        this.failing = true;
        m?.kafkaProduceDuration.observe({ outcome: 'error' }, (performance.now() - t0) / 1000);
        this.failed('error', take.filter((p) => !p.settled).length);
        const unacknowledged = new SentUnacknowledged((err as Error).message ?? String(err));
        for (const p of take) this.settle(p, unacknowledged);
      } finally {
        this.queuedEvents -= take.reduce((n, p) => n + p.events, 0);
      }
    }
    this.sending = false;
    for (const f of this.idle.splice(0)) f();
  }

  /** Resolves once everything queued has been sent or refused. */
  drain(): Promise<void> {
    if (!this.sending && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}
