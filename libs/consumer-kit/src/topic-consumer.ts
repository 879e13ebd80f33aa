import type { ConsumedMessage, MessageLog, Producer, TopicPosition, BatchContext } from '@devtrail/message-log';
import { isRetryable } from '@devtrail/failures';
import { backoffMs, sleep } from './backoff.ts';
import { deadLetter } from './dead-letter.ts';

// A consumer-group member that turns a topic into micro-batches:
//   decode each message into its items (a message that cannot be read, or an item of it
//   that cannot, is dead-lettered at once, with its reason)
//   -> buffer until `batchRows` or `batchMs`, whichever first
//   -> write(batch) while the next batch is read (one write ahead at most): retryable
//      failures wait with backoff (consumption pauses, nothing is lost); a permanent
//      failure is split until the bad message is found and dead-lettered, the rest written
//   -> commit offsets only after the write succeeded.
// Every message ends in exactly one counted outcome: written, dead-lettered, or discarded on
// purpose by the write (a deleted project's events).
// Delivery is at-least-once; writers de-duplicate by event id.

export interface Logger {
  debug?(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface TopicConsumerOptions<T> {
  /** Names this consumer in logs, metrics and dead-letter headers. */
  name: string;
  messageLog: MessageLog;
  groupId: string;
  topic: string;
  deadLetterTopic: string;
  /** A message's items (one, or a batch's events); throw to dead-letter the whole message. */
  decode(message: ConsumedMessage): Decoded<T>;
  /**
   * Writes a batch; throw a permanent Failure (contract failure.ts) for data that can never be
   * written. May resolve to how many items it discarded on purpose instead (a deleted
   * project's events): they are counted as discarded, not written.
   */
  write(items: T[]): Promise<unknown>;
  batchRows?: number;
  batchMs?: number;
  /** Longest wait between retries of a failed write (CONSUMER_RETRY_MAX_MS): a store that is back is used within this. */
  retryMaxMs?: number;
  logger?: Logger;
}

export interface ConsumerStats {
  name: string;
  group: string;
  topic: string;
  written: number;
  deadLettered: number;
  /** Items the write discarded on purpose (a deleted project's events, docs/data.md#deletion). */
  discarded: number;
  batches: number;
  retries: number;
  buffered: number;
  lastWriteAt: string | null;
  lastError: string | null;
}

export interface TopicConsumer {
  start(): Promise<void>;
  /** Stops fetching, writes what is buffered (bounded wait), commits, leaves the group. */
  stop(): Promise<void>;
  stats(): ConsumerStats;
  lag(): Promise<number>;
}

/** What one message holds. */
export interface Decoded<T> {
  items: T[];
  /** Items that cannot be read, each dead-lettered alone: its own message value and why. */
  rejected?: Array<{ value: Buffer; reason: string }>;
  /** The dead-letter value of items[i] should a write refuse it for good; default: the whole message. */
  letter?(i: number): Buffer;
  /** Headers that replace the source message's on such a dead letter (e.g. its event count). */
  letterHeaders?: Record<string, string>;
}

interface Item<T> {
  message: ConsumedMessage;
  value: T;
  /** Where it came from: its message's decoding and its place there (for its dead letter). */
  from: Decoded<T>;
  index: number;
}

interface Dead {
  message: ConsumedMessage;
  reason: string;
  value?: Buffer;
  headers?: Record<string, string>;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

export function createTopicConsumer<T>(opts: TopicConsumerOptions<T>): TopicConsumer {
  const batchRows = opts.batchRows ?? 10_000;
  const batchMs = opts.batchMs ?? 1000;
  const log = opts.logger ?? silent;
  const consumer = opts.messageLog.createConsumer({ groupId: opts.groupId, topics: [opts.topic] });
  let dlqProducer: Producer | undefined;
  let buffer: Item<T>[] = [];
  let dead: Dead[] = [];
  let positions = new Map<number, string>();
  let chain: Promise<void> = Promise.resolve();
  let flushesPending = 0;
  let lastFullFlush: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopDeadline = Infinity;
  let epoch = 0; // bumps on rebalance: work taken before it must not be committed
  let failedSinceRebalance = false; // a batch was not written: commit nothing past it until the group re-reads
  const stats: ConsumerStats = {
    name: opts.name,
    group: opts.groupId,
    topic: opts.topic,
    written: 0,
    deadLettered: 0,
    discarded: 0,
    batches: 0,
    retries: 0,
    buffered: 0,
    lastWriteAt: null,
    lastError: null,
  };

  /** Retries a retryable step with backoff until it succeeds or we are stopping past the deadline. */
  async function persist<R>(what: string, step: () => Promise<R>, ctx?: BatchContext): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step();
      } catch (err) {
        if (!isRetryable(err)) throw err;
        const e = err as Error;
        stats.retries++;
        stats.lastError = `${what}: ${e.message}`;
        if (Date.now() > stopDeadline) throw new Error(`gave up on ${what} while stopping: ${e.message}`);
        const wait = backoffMs(attempt, 100, opts.retryMaxMs ?? 1000);
        // The first failure says so; the retries after it are debug (the store's own
        // adapter logs once when it becomes unreachable and once when it is back).
        (attempt === 0 ? log.warn : (log.debug ?? (() => {}))).call(log, { consumer: opts.name, attempt, waitMs: wait, err: e.message }, `${what} failed; retrying`);
        await sleep(wait);
        await ctx?.heartbeat().catch(() => {});
      }
    }
  }

  async function sendDead(items: Dead[], ctx?: BatchContext) {
    if (items.length === 0) return;
    dlqProducer ??= opts.messageLog.createProducer();
    const p = dlqProducer;
    const messages = items.map((d) => deadLetter(d.message, opts.name, d.reason, d.value, d.headers));
    await persist('dead-letter produce', () => p.send([{ topic: opts.deadLetterTopic, messages }]), ctx);
    stats.deadLettered += items.length;
    for (const d of items) log.warn({ consumer: opts.name, partition: d.message.partition, offset: d.message.offset, reason: d.reason }, 'dead-lettered');
  }

  /** Writes items; on a permanent failure splits to isolate the bad ones. */
  async function writeIsolating(items: Item<T>[], ctx?: BatchContext): Promise<void> {
    try {
      const r = await persist('write', () => opts.write(items.map((i) => i.value)), ctx);
      const discarded = typeof r === 'number' ? r : 0;
      stats.written += items.length - discarded;
      stats.discarded += discarded;
    } catch (err) {
      if (isRetryable(err)) throw err;
      const e = err as Error;
      if (items.length === 1) {
        const [i] = items;
        await sendDead([{ message: i.message, reason: `write rejected: ${e.message}`, value: i.from.letter?.(i.index), headers: i.from.letterHeaders }], ctx);
        return;
      }
      const mid = Math.ceil(items.length / 2);
      await writeIsolating(items.slice(0, mid), ctx);
      await writeIsolating(items.slice(mid), ctx);
    }
  }

  /** Takes what is buffered and writes it, then commits; flushes run one at a time, in order. */
  function flush(ctx?: BatchContext): Promise<void> {
    const items = buffer;
    const bad = dead;
    const upTo = positions;
    const myEpoch = epoch;
    buffer = [];
    dead = [];
    positions = new Map();
    stats.buffered = 0;
    flushesPending++;
    // A failed flush must not block the ones after it (its offsets stay uncommitted).
    const run = chain.then(async () => {
      if (items.length === 0 && bad.length === 0 && upTo.size === 0) return;
      await sendDead(bad, ctx);
      if (items.length > 0) await writeIsolating(items, ctx);
      stats.batches++;
      stats.lastWriteAt = new Date().toISOString();
      if (myEpoch !== epoch || failedSinceRebalance) return; // the new owner (or a restart) re-reads from the last commit
      const commit: TopicPosition[] = [...upTo].map(([partition, offset]) => ({ topic: opts.topic, partition, offset }));
      await consumer.commit(commit).catch((err) => log.warn({ consumer: opts.name, err: (err as Error).message }, 'commit failed; messages will be redelivered'));
    });
    chain = run
      .catch(() => {
        epoch++; // never commit past a batch that was not written
        failedSinceRebalance = true;
      })
      .finally(() => {
        flushesPending--;
      });
    return run;
  }

  consumer.onRebalance(() => {
    epoch++;
    failedSinceRebalance = false;
    buffer = [];
    dead = [];
    positions = new Map();
    stats.buffered = 0;
  });

  return {
    async start() {
      running = true;
      timer = setInterval(() => {
        // At most one timed flush waits at a time, so an outage cannot pile up batches.
        if (flushesPending === 0 && (buffer.length > 0 || dead.length > 0 || positions.size > 0))
          flush().catch((err) => log.error({ consumer: opts.name, err: (err as Error).message }, 'flush failed'));
      }, batchMs);
      const nextOffset = (m: ConsumedMessage) => String(BigInt(m.offset) + 1n);
      await consumer.run(async (messages, ctx) => {
        for (const m of messages) {
          try {
            const d = opts.decode(m);
            for (let i = 0; i < d.items.length; i++) buffer.push({ message: m, value: d.items[i], from: d, index: i });
            for (const r of d.rejected ?? []) dead.push({ message: m, reason: `undecodable: ${r.reason}`, value: r.value, headers: d.letterHeaders });
          } catch (err) {
            dead.push({ message: m, reason: `undecodable: ${(err as Error).message}` });
          }
          positions.set(m.partition, nextOffset(m));
          stats.buffered = buffer.length;
          // Backpressure with one write ahead, checked after every message (a fetch can hold
          // tens of thousands of events): a full buffer starts its write and the next is read
          // meanwhile (decoding overlaps the store's work); a second full buffer waits until
          // the write before it is done. Memory: about 2 x batchRows, whatever a fetch holds.
          if (buffer.length >= batchRows) {
            const before = lastFullFlush;
            lastFullFlush = flush(ctx);
            lastFullFlush.catch(() => {}); // its failure is thrown by the next full batch's `await before`
            await before; // a failed write throws here, and the group re-reads from the last commit
          }
        }
      });
    },

    async stop() {
      if (!running) return;
      running = false;
      clearInterval(timer);
      stopDeadline = Date.now() + 10_000;
      await flush().catch((err) => log.warn({ consumer: opts.name, err: (err as Error).message }, 'final flush failed; uncommitted messages will be redelivered'));
      await consumer.stop();
      await dlqProducer?.disconnect();
    },

    stats: () => ({ ...stats }),

    async lag() {
      return (await opts.messageLog.lag(opts.groupId, [opts.topic])).reduce((n, p) => n + p.lag, 0);
    },
  };
}
