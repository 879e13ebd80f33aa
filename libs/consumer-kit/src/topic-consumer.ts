import type { ConsumedMessage, MessageLog, Producer, TopicPosition, BatchContext } from '@devtrail/message-log';
import { Failure, isRetryable } from '@devtrail/failures';
import { backoffMs, sleep } from './backoff.ts';
import { deadLetter } from './dead-letter.ts';
import { groupTopics } from './group-topics.ts';

// A consumer-group member that turns a topic into micro-batches:
//   decode each message into its items (a message that cannot be read, or an item of it
//   that cannot, is dead-lettered at once, with its reason)
//   -> buffer until `batchRows` or `batchMs`, whichever first
//   -> write(batch) while the next batch is read (one write ahead at most): retryable
//      failures wait with backoff (consumption pauses, nothing is lost); a permanent
//      failure is split until the bad message is found and dead-lettered, the rest written;
//      an error that is not a Failure (a defect: a conversion or an insert that throws a
//      plain Error) is retried `unknownErrorRetries` times, then taken as permanent, so a
//      bug can stall a partition for seconds, never for good
//   -> commit offsets only after the write succeeded.
// Every message ends in exactly one counted outcome (hooks): written, dead-lettered, or
// discarded on purpose by the write (a deleted project's events).
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
  /** Where dead letters go; default `<groupId>.dlq`, the group's own (created at start). */
  deadLetterTopic?: string;
  /**
   * Where `redrive` sends dead letters back to this group (read beside `topic`); default
   * `<groupId>.redrive` (created at start); null: none.
   */
  redriveTopic?: string | null;
  /** Create the dead-letter and redrive topics at start when missing (default true; devtrail's sinks use topics devtrail made). */
  createTopics?: boolean;
  /** Hears of every dead letter once it is on the dead-letter topic (after the hooks). */
  onDeadLetter?(letter: DeadLetter): void | Promise<void>;
  /** A crashed member's partitions move to the others after this (Kafka's session.timeout.ms); default 10 s (docs/topics.md, "Restarts"). */
  sessionTimeoutMs?: number;
  /** How often the member heartbeats (heartbeat.interval.ms); default 1 s. */
  heartbeatIntervalMs?: number;
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
  /** Retries of an error that is not a Failure before it counts as permanent (CONSUMER_UNKNOWN_ERROR_RETRIES, default 5). */
  unknownErrorRetries?: number;
  logger?: Logger;
  /** Called as outcomes happen (devtrail's Prometheus metrics hang here). */
  hooks?: ConsumerHooks;
}

/** Why an item was dead-lettered: unreadable; refused for good by the write; failing with an unknown error after its retries. */
export type DeadLetterReason = 'undecodable' | 'rejected' | 'failed';

/** A dead letter as `onDeadLetter` hears of it. */
export interface DeadLetter {
  why: DeadLetterReason;
  /** The reason in words (the letter's dt-dlq-reason header). */
  reason: string;
  /** The dead-letter topic it is on. */
  topic: string;
  /** Where the message it came from was read. */
  source: { topic: string; partition: number; offset: string };
  /** The letter's value: the whole message, or the one event, as a message of its own. */
  value: Buffer;
  headers: Record<string, string>;
}

export interface ConsumerHooks {
  /** `count` items were written. */
  stored?(count: number): void;
  /** A flush wrote every item of these messages: their append times (epoch ms), one per message. */
  visible?(appendTimesMs: number[]): void;
  deadLettered?(reason: DeadLetterReason, count: number): void;
  /** `count` items were not written on purpose (the write said so: a deleted project's events). */
  discarded?(count: number): void;
  /** A failed write or dead-letter produce is tried again. */
  retried?(cause: 'retryable' | 'unknown'): void;
  /** A flush's write is done: when it started and ended, and where its items came from (a consumer's own timing). */
  flushed?(timing: FlushTiming): void;
}

/** One flush's write and the messages it wrote (ConsumerHooks.flushed). */
export interface FlushTiming {
  items: number;
  /** Epoch ms. */
  writeStartedAt: number;
  writeEndedAt: number;
  /** Its messages, as runs of one partition handed over by one fetch (the message log's fetchedAt, epoch ms, null when unknown). */
  runs: Array<{ topic: string; partition: number; from: string; to: string; fetchedAt: number | null }>;
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
  /** Since when the batch being written has been failing (null while writes succeed). */
  stalledSince: string | null;
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
  /** The headers such a letter starts from, given the source message's (default: the source's own; see dead-letter.ts). */
  letterBase?(source: Record<string, string>): Record<string, string>;
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
  why: DeadLetterReason;
  reason: string;
  value?: Buffer;
  headers?: Record<string, string>;
  base?: Record<string, string>;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

/** An unknown error that kept failing: permanent from here on (its items are isolated and dead-lettered). */
class GaveUp extends Failure {
  constructor(readonly cause: Error) {
    super(cause.message, false);
  }
}

/**
 * A group's own topics (its dead letters, its redrive topic), created before anything may be
 * sent to them (a topic the broker does not host would stall the partition that needs it), with
 * as many partitions as the topic the group reads (docs/topics.md). Topics that exist are left as they are.
 */
export async function ensureGroupTopics(messageLog: MessageLog, source: string, topics: string[]): Promise<void> {
  const partitions = await messageLog.watermarks(source).then(
    (w) => Math.max(1, w.length),
    () => 1,
  );
  await messageLog.ensureTopics(topics, partitions);
}

export function createTopicConsumer<T>(opts: TopicConsumerOptions<T>): TopicConsumer {
  const batchRows = opts.batchRows ?? 10_000;
  const batchMs = opts.batchMs ?? 1000;
  const log = opts.logger ?? silent;
  const hooks = opts.hooks ?? {};
  const unknownErrorRetries = opts.unknownErrorRetries ?? 5;
  const own = groupTopics(opts.groupId);
  const deadLetterTopic = opts.deadLetterTopic ?? own.deadLetter;
  const redriveTopic = opts.redriveTopic === undefined ? own.redrive : opts.redriveTopic;
  const consumer = opts.messageLog.createConsumer({
    groupId: opts.groupId,
    topics: redriveTopic ? [opts.topic, redriveTopic] : [opts.topic],
    sessionTimeoutMs: opts.sessionTimeoutMs,
    heartbeatIntervalMs: opts.heartbeatIntervalMs,
  });
  let dlqProducer: Producer | undefined;
  let buffer: Item<T>[] = [];
  let dead: Dead[] = [];
  let positions = new Map<string, TopicPosition>();
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
    stalledSince: null,
  };

  /**
   * Retries a step with backoff: a retryable Failure until it succeeds or we are stopping past
   * the deadline; an unknown error `unknownRetries` times, then it is thrown as permanent.
   */
  async function persist<R>(what: string, step: () => Promise<R>, ctx?: BatchContext, unknownRetries = unknownErrorRetries): Promise<R> {
    for (let attempt = 0, unknown = 0; ; attempt++) {
      try {
        const r = await step();
        stats.stalledSince = null;
        return r;
      } catch (err) {
        stats.stalledSince ??= new Date().toISOString();
        if (!isRetryable(err)) throw err;
        const e = err as Error;
        if (!(err instanceof Failure) && unknown++ >= unknownRetries) throw new GaveUp(e);
        hooks.retried?.(err instanceof Failure ? 'retryable' : 'unknown');
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
    const messages = items.map((d) => deadLetter(d.message, opts.name, d.reason, d.value, d.headers, d.base));
    await persist('dead-letter produce', () => p.send([{ topic: deadLetterTopic, messages }]), ctx);
    stats.deadLettered += items.length;
    for (const d of items) hooks.deadLettered?.(d.why, 1);
    for (const d of items) log.warn({ consumer: opts.name, partition: d.message.partition, offset: d.message.offset, reason: d.reason }, 'dead-lettered');
    if (opts.onDeadLetter) {
      for (const [i, d] of items.entries()) {
        const { topic, partition, offset } = d.message;
        const letter: DeadLetter = {
          why: d.why,
          reason: d.reason,
          topic: deadLetterTopic,
          source: { topic, partition, offset },
          value: messages[i].value,
          headers: messages[i].headers,
        };
        try {
          await opts.onDeadLetter(letter);
        } catch (err) {
          log.error({ consumer: opts.name, err: (err as Error).message }, 'onDeadLetter threw; the letter is on the dead-letter topic');
        }
      }
    }
  }

  /**
   * Writes items; on a permanent failure splits to isolate the bad ones. Once an unknown error
   * has had its retries (on the whole batch), the halves get none: the error is a defect of
   * some items, and the split finds them in about 2 x items writes.
   */
  async function writeIsolating(items: Item<T>[], ctx?: BatchContext, unknownRetries = unknownErrorRetries): Promise<void> {
    try {
      const r = await persist('write', () => opts.write(items.map((i) => i.value)), ctx, unknownRetries);
      const discarded = typeof r === 'number' ? r : 0;
      stats.written += items.length - discarded;
      stats.discarded += discarded;
      hooks.stored?.(items.length - discarded);
      if (discarded > 0) hooks.discarded?.(discarded);
    } catch (err) {
      if (isRetryable(err)) throw err;
      const e = err as Error;
      if (items.length === 1) {
        const [i] = items;
        const why: DeadLetterReason = err instanceof GaveUp ? 'failed' : 'rejected';
        const reason = why === 'failed' ? `write failed after ${unknownErrorRetries} retries: ${e.message}` : `write rejected: ${e.message}`;
        const base = i.from.letter && i.from.letterBase ? i.from.letterBase(i.message.headers) : undefined;
        await sendDead([{ message: i.message, why, reason, value: i.from.letter?.(i.index), headers: i.from.letterHeaders, base }], ctx);
        return;
      }
      const mid = Math.ceil(items.length / 2);
      const retriesLeft = err instanceof GaveUp ? 0 : unknownRetries;
      await writeIsolating(items.slice(0, mid), ctx, retriesLeft);
      await writeIsolating(items.slice(mid), ctx, retriesLeft);
    }
  }

  /** A flush's messages as runs of one partition and one fetch, in order. */
  function runsOf(items: Item<T>[]): FlushTiming['runs'] {
    const runs: FlushTiming['runs'] = [];
    let last: ConsumedMessage | undefined;
    for (const { message: m } of items) {
      if (m === last) continue;
      last = m;
      const fetchedAt = m.fetchedAt ?? null;
      const run = runs.findLast((r) => r.topic === m.topic && r.partition === m.partition);
      if (run && run.fetchedAt === fetchedAt) run.to = m.offset;
      else runs.push({ topic: m.topic, partition: m.partition, from: m.offset, to: m.offset, fetchedAt });
    }
    return runs;
  }

  /** One append time per message of a flush (its items are all written or dead-lettered now). */
  function appendTimes(items: Item<T>[]): number[] {
    const out: number[] = [];
    let last: ConsumedMessage | undefined;
    for (const i of items) if (i.message !== last) out.push((last = i.message).timestamp);
    return out;
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
      if (items.length > 0) {
        const writeStartedAt = Date.now();
        await writeIsolating(items, ctx);
        if (hooks.visible) hooks.visible(appendTimes(items));
        if (hooks.flushed) hooks.flushed({ items: items.length, writeStartedAt, writeEndedAt: Date.now(), runs: runsOf(items) });
      }
      stats.batches++;
      stats.lastWriteAt = new Date().toISOString();
      if (myEpoch !== epoch || failedSinceRebalance) return; // the new owner (or a restart) re-reads from the last commit
      const commit: TopicPosition[] = [...upTo.values()];
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
      if (opts.createTopics !== false) await ensureGroupTopics(opts.messageLog, opts.topic, redriveTopic ? [deadLetterTopic, redriveTopic] : [deadLetterTopic]);
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
            const base = d.rejected?.length && d.letterBase ? d.letterBase(m.headers) : undefined;
            for (const r of d.rejected ?? [])
              dead.push({ message: m, why: 'undecodable', reason: `undecodable: ${r.reason}`, value: r.value, headers: d.letterHeaders, base });
          } catch (err) {
            dead.push({ message: m, why: 'undecodable', reason: `undecodable: ${(err as Error).message}` });
          }
          positions.set(`${m.topic}\u0000${m.partition}`, { topic: m.topic, partition: m.partition, offset: nextOffset(m) });
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
      return (await opts.messageLog.lag(opts.groupId, redriveTopic ? [opts.topic, redriveTopic] : [opts.topic])).reduce((n, p) => n + p.lag, 0);
    },
  };
}
