import './kafkajs-crc32c.ts'; // before kafkajs: its record batches are checksummed natively
import { Kafka, logLevel, CompressionTypes, type Consumer as KConsumer, type Admin, type ConsumerConfig, type KafkaConfig, type LogEntry } from 'kafkajs';
import { reachability, type LogFn } from '@devtrail/failures';
import {
  MessageLogError,
  type BatchContext,
  type ConsumedMessage,
  type Consumer,
  type ConsumerOptions,
  type MessageLog,
  type PartitionLag,
  type Producer,
} from './message-log.ts';
import { javaCompatiblePartitioner } from './kafka-partitioner.ts';
import { KAFKA_MAX_MESSAGE_BYTES, kafkaTopicConfig } from './kafka-topic-config.ts';
import { whileTopicsAppear } from './kafka-new-topics.ts';
import { headerStrings } from './kafka-headers.ts';
import { kafkaHistory } from './kafka-history.ts';
import { isConnectionLoss } from './kafka-connection-loss.ts';

export interface KafkaLogOptions {
  brokers: string[];
  clientId: string;
  /** TLS to the brokers: true, or the CA certificates to trust (docs/deployment.md#securing-kafka). */
  ssl?: boolean | { ca: string[] };
  /** SASL credentials (PLAIN or SCRAM), sent only over TLS in production. */
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  /** How long a produce may take before the caller is told "not durable" (503). */
  sendTimeoutMs?: number;
  /** Where the client's lines go: kafkajs's own at debug, and one line per change of the broker's reachability. */
  log?: LogFn;
}

const KAFKAJS_LEVELS: Record<number, string> = { [logLevel.ERROR]: 'error', [logLevel.WARN]: 'warn', [logLevel.INFO]: 'info', [logLevel.DEBUG]: 'debug' };

// kafkajs errors that mean the broker did not answer (as opposed to answering "no").
const TRANSPORT_ERRORS = new Set(['KafkaJSConnectionError', 'KafkaJSConnectionClosedError', 'KafkaJSRequestTimeoutError', 'KafkaJSBrokerNotFound']);

/** True when the error, or any error it wraps, is a transport failure or our own timeout. */
function isTransportFailure(err: unknown): boolean {
  for (let e = err as { name?: string; cause?: unknown } | undefined, depth = 0; e && depth < 10; e = e.cause as typeof e, depth++) {
    if (e instanceof MessageLogError || TRANSPORT_ERRORS.has(e.name ?? '')) return true;
  }
  return false;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new MessageLogError(`${what} timed out after ${ms} ms`, true)), ms);
    }),
  ]);
}

/** Apache Kafka (4.x; 3.x works too) through kafkajs. */
export function createKafkaLog(opts: KafkaLogOptions): MessageLog {
  const sendTimeoutMs = opts.sendTimeoutMs ?? 5000;
  const broker = reachability('kafka', opts.log);
  // kafkajs logs every failed connection attempt and retry at error level (30-80 lines per
  // outage): its lines go to debug, and `broker` says once that Kafka is gone and once that it is back.
  const logCreator = () => (entry: LogEntry) => {
    const { message, timestamp: _, logger: __, ...extra } = entry.log;
    opts.log?.('debug', `kafkajs: ${message}`, { namespace: entry.namespace, kafkajs_level: KAFKAJS_LEVELS[entry.level] ?? entry.level, ...extra });
    // A consumer retries its fetches without end and never crashes: a broker it cannot connect
    // to is seen here (kafkajs's Connection error or timeout), and back at its next fetch.
    if (entry.namespace === 'Connection' && entry.level === logLevel.ERROR && isConnectionLoss(message)) broker.unreachable(new Error(message));
  };
  const observe = <T>(p: Promise<T>): Promise<T> =>
    p.then(
      (v) => (broker.reached(), v),
      (err) => {
        if (isTransportFailure(err)) broker.unreachable(err);
        throw err;
      },
    );
  const security = { ssl: opts.ssl || undefined, sasl: opts.sasl } as Pick<KafkaConfig, 'ssl' | 'sasl'>;
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    ...security,
    connectionTimeout: 2000,
    requestTimeout: 10_000,
    retry: { initialRetryTime: 200, retries: 8, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator,
  });
  // A separate client with short retries for health and admin calls: readiness must
  // answer fast when the broker is gone.
  const quick = new Kafka({
    clientId: `${opts.clientId}-admin`,
    brokers: opts.brokers,
    ...security,
    connectionTimeout: 1000,
    requestTimeout: 3000,
    retry: { retries: 1, initialRetryTime: 100 },
    logLevel: logLevel.NOTHING,
  });
  let admin: Admin | undefined;
  const getAdmin = async () => {
    if (!admin) {
      const a = quick.admin();
      await a.connect();
      admin = a;
    }
    return admin;
  };
  const adminCall = async <T>(fn: (a: Admin) => Promise<T>, what: string): Promise<T> => {
    try {
      return await observe(withTimeout(getAdmin().then(fn), 4000, what));
    } catch (err) {
      const a = admin;
      admin = undefined;
      await a?.disconnect().catch(() => {});
      throw err instanceof MessageLogError ? err : new MessageLogError(`${what}: ${(err as Error).message}`, true);
    }
  };
  const consumerConfig = (groupId: string, o: Pick<ConsumerOptions, 'sessionTimeoutMs' | 'heartbeatIntervalMs'> = {}): ConsumerConfig => ({
    groupId,
    // A crashed member's partitions move after 10 s by default, not Kafka's 45 s (docs/topics.md, "Restarts").
    sessionTimeout: o.sessionTimeoutMs ?? 10_000,
    heartbeatInterval: o.heartbeatIntervalMs ?? 1000,
    maxWaitTimeInMs: 200,
    // At least the largest batch: the broker returns an oversized batch only for the
    // first partition of a fetch, so a smaller limit can stall a partition behind busy ones.
    maxBytesPerPartition: KAFKA_MAX_MESSAGE_BYTES,
    maxBytes: 2 * KAFKA_MAX_MESSAGE_BYTES,
    retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 200, maxRetryTime: 1000 },
  });
  const createMissing = (topics: string[], partitions: number, replicationFactor: number, config: Record<string, string>) =>
    adminCall(async (a) => {
      const existing = new Set(await a.listTopics());
      const missing = topics.filter((t) => !existing.has(t));
      if (missing.length > 0) {
        // Another process may be creating the same topics right now: that is fine.
        await a
          .createTopics({
            waitForLeaders: true,
            topics: missing.map((topic) => ({
              topic,
              numPartitions: partitions,
              replicationFactor,
              configEntries: [...kafkaTopicConfig(replicationFactor), ...Object.entries(config).map(([name, value]) => ({ name, value }))],
            })),
          })
          .catch(async (err) => {
            const now = new Set(await a.listTopics());
            if (!missing.every((t) => now.has(t))) throw err;
          });
      }
    }, 'ensureTopics');
  const consumers = new Set<Consumer>();
  const producers = new Set<Producer>();

  return {
    kind: 'kafka',
    async ensureTopics(topics, partitions, replicationFactor = 1, config = {}) {
      // Processes starting together create the same topics (kafka-new-topics.ts).
      await whileTopicsAppear(() => createMissing(topics, partitions, replicationFactor, config));
    },

    createProducer(): Producer {
      // acks=all, and every retry is ours: one kafkajs attempt (retries: 0) per try, and a
      // failed try re-sends the whole batch until sendTimeoutMs. kafkajs's own retries and
      // its idempotent mode lose acknowledged messages when a broker dies (tulios/kafkajs
      // #1303): a retry skips partitions that moved to a broker which already answered, and a
      // failed request rewinds the sequence numbers of partitions that were written, so a
      // later batch of the same size is taken for a duplicate and dropped. Re-sending can
      // write a message twice; consumers de-duplicate by event id (docs/topics.md).
      const p = kafka.producer({
        idempotent: false,
        allowAutoTopicCreation: false,
        retry: { retries: 0 },
        createPartitioner: javaCompatiblePartitioner, // kafkajs's default choices, cheaper (kafka-partitioner.ts)
      });
      let connected: Promise<void> | undefined;
      const producer: Producer = {
        async connect() {
          connected ??= p.connect().catch((err) => {
            connected = undefined;
            throw err;
          });
          await connected;
        },
        async send(batches) {
          const topicMessages = batches.map((b) => ({ topic: b.topic, messages: b.messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers })) }));
          const deadline = Date.now() + sendTimeoutMs;
          for (let attempt = 0; ; attempt++) {
            try {
              await withTimeout(
                (async () => {
                  await producer.connect();
                  await p.sendBatch({ acks: -1, timeout: sendTimeoutMs, compression: CompressionTypes.None, topicMessages });
                })(),
                Math.max(deadline - Date.now(), 1),
                'produce',
              );
              broker.reached();
              return;
            } catch (err) {
              const pause = Math.min(100 * 2 ** attempt, 1000);
              const permanent = (err as { retriable?: boolean }).retriable === false && (err as Error).name !== 'KafkaJSNumberOfRetriesExceeded';
              if (err instanceof MessageLogError || permanent || Date.now() + pause >= deadline) {
                if (isTransportFailure(err)) broker.unreachable(err);
                throw err instanceof MessageLogError ? err : new MessageLogError(`produce failed: ${(err as Error).message}`, true);
              }
              await new Promise((r) => setTimeout(r, pause));
            }
          }
        },
        async disconnect() {
          producers.delete(producer);
          await p.disconnect().catch(() => {});
        },
      };
      producers.add(producer);
      return producer;
    },

    createConsumer(copts: ConsumerOptions): Consumer {
      const c: KConsumer = kafka.consumer(consumerConfig(copts.groupId, copts));
      const rebalanceCbs: Array<() => void> = [];
      c.on(c.events.GROUP_JOIN, () => {
        broker.reached();
        rebalanceCbs.forEach((cb) => cb());
      });
      c.on(c.events.FETCH, () => broker.reached());
      // kafkajs restarts a consumer after a retriable crash by itself; one it does not restart
      // consumes nothing more until the process restarts, which an operator must hear about.
      c.on(c.events.CRASH, ({ payload }) => {
        if (isTransportFailure(payload.error)) broker.unreachable(payload.error);
        if (!payload.restart)
          opts.log?.('error', 'kafka consumer stopped: kafkajs does not restart it after this error', { group: copts.groupId, err: payload.error.message });
      });
      let running = false;
      const consumer: Consumer = {
        async run(handler) {
          await c.connect();
          await whileTopicsAppear(() => c.subscribe({ topics: copts.topics, fromBeginning: copts.fromBeginning ?? true }));
          running = true;
          await c.run({
            autoCommit: false,
            eachBatchAutoResolve: false,
            partitionsConsumedConcurrently: 1,
            eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
              if (batch.messages.length === 0 || isStale()) return;
              const fetchedAt = Date.now();
              const messages: ConsumedMessage[] = batch.messages.map((m) => {
                // Key and headers are decoded when first read: sinks read only the value.
                let key: string | null | undefined;
                let headers: Record<string, string> | undefined;
                return {
                  topic: batch.topic,
                  partition: batch.partition,
                  offset: m.offset,
                  get key() {
                    return key === undefined ? (key = m.key ? m.key.toString('utf8') : null) : key;
                  },
                  value: m.value,
                  get headers() {
                    return (headers ??= headerStrings(m.headers));
                  },
                  timestamp: Number(m.timestamp),
                  fetchedAt,
                };
              });
              const ctx: BatchContext = { heartbeat, isRunning: () => running && isRunning() && !isStale() };
              await handler(messages, ctx);
              // Marks the fetch position only; the commit happens when the caller says so.
              resolveOffset(batch.messages[batch.messages.length - 1].offset);
            },
          });
        },
        async commit(positions) {
          if (positions.length === 0) return;
          await c.commitOffsets(positions.map((p) => ({ topic: p.topic, partition: p.partition, offset: p.offset })));
        },
        onRebalance(cb) {
          rebalanceCbs.push(cb);
        },
        async stop() {
          running = false;
          consumers.delete(consumer);
          await c.disconnect().catch(() => {});
        },
      };
      consumers.add(consumer);
      return consumer;
    },

    async lag(groupId, topics) {
      return adminCall(async (a) => {
        const out: PartitionLag[] = [];
        const committed = await a.fetchOffsets({ groupId, topics });
        for (const t of committed) {
          const ends = await a.fetchTopicOffsets(t.topic);
          for (const p of t.partitions) {
            const end = ends.find((e) => e.partition === p.partition);
            const endOff = BigInt(end?.high ?? '0');
            const low = BigInt(end?.low ?? '0');
            const com = p.offset === '-1' ? low : BigInt(p.offset);
            out.push({ topic: t.topic, partition: p.partition, committed: com.toString(), end: endOff.toString(), lag: Number(endOff - com) });
          }
        }
        return out;
      }, 'lag');
    },

    ...kafkaHistory({ kafka, adminCall, consumerConfig, clientId: opts.clientId }),

    async ping() {
      await adminCall((a) => a.describeCluster(), 'ping');
    },

    async close() {
      await Promise.all([...consumers].map((c) => c.stop()));
      await Promise.all([...producers].map((p) => p.disconnect()));
      await admin?.disconnect().catch(() => {});
      admin = undefined;
    },
  };
}
