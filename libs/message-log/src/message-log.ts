import { Failure } from '@devtrail/failures';

// The message-log role. Stages talk only to this interface, so kafkajs could be
// replaced by another client (or by the in-process log) without touching them.
// test/message-log.contract.ts is the behaviour both implementations share.

export interface OutgoingMessage {
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
}

export interface ConsumedMessage {
  topic: string;
  partition: number;
  /** Decimal string: Kafka offsets are 64-bit. */
  offset: string;
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
  /** Append time, epoch ms. */
  timestamp: number;
  /** When the client handed it to the consumer's handler, epoch ms (a consumer's own timing: how long it waited in the log). */
  fetchedAt?: number;
}

/** The next offset a group will read from a partition. */
export interface TopicPosition {
  topic: string;
  partition: number;
  offset: string;
}

export interface PartitionLag {
  topic: string;
  partition: number;
  committed: string;
  end: string;
  lag: number;
}

/** Offsets [from, to) of one partition. */
export interface PartitionRange {
  partition: number;
  from: string;
  to: string;
}

/** A partition's oldest retained offset (low) and the offset its next message gets (high). */
export interface Watermarks {
  partition: number;
  low: string;
  high: string;
}

export interface Producer {
  connect(): Promise<void>;
  /** Resolves only once every message is durably acknowledged (acks=all); rejects otherwise. */
  send(batches: Array<{ topic: string; messages: OutgoingMessage[] }>): Promise<void>;
  disconnect(): Promise<void>;
}

export interface BatchContext {
  /** Keeps group membership alive during long work (e.g. waiting out a column-store outage). */
  heartbeat(): Promise<void>;
  isRunning(): boolean;
}

export interface Consumer {
  /**
   * Starts delivering messages, in offset order per partition. The next delivery waits
   * until the handler resolves (backpressure). Nothing is committed automatically.
   */
  run(handler: (messages: ConsumedMessage[], ctx: BatchContext) => Promise<void>): Promise<void>;
  /** Commits positions; after a restart the group resumes from the last commit. */
  commit(positions: TopicPosition[]): Promise<void>;
  /** Called when partition ownership changed: work not yet committed will be redelivered. */
  onRebalance(cb: () => void): void;
  stop(): Promise<void>;
}

export interface ConsumerOptions {
  groupId: string;
  topics: string[];
  /** Where a new group starts: the oldest retained message (default) or only new ones. */
  fromBeginning?: boolean;
  /**
   * How long the group waits for a member that stopped heartbeating (a crash) before its
   * partitions move to the others (Kafka's session.timeout.ms; default 10 s here, 45 s in
   * librdkafka and the Java client). Within the broker's group.min/max.session.timeout.ms.
   */
  sessionTimeoutMs?: number;
  /** How often a member heartbeats (heartbeat.interval.ms; default 1 s); well under the session timeout. */
  heartbeatIntervalMs?: number;
}

export interface MessageLog {
  readonly kind: 'kafka' | 'memory';
  /** Creates the topics that do not exist yet; `config`: topic settings beside devtrail's own (e.g. retention.ms). */
  ensureTopics(topics: string[], partitions: number, replicationFactor?: number, config?: Record<string, string>): Promise<void>;
  createProducer(): Producer;
  createConsumer(opts: ConsumerOptions): Consumer;
  lag(groupId: string, topics: string[]): Promise<PartitionLag[]>;
  // History (devtrail replay, docs/topics.md "Replay"): what a topic still retains, read outside any group.
  watermarks(topic: string): Promise<Watermarks[]>;
  /** Per partition, the first offset appended at or after `timeMs` (the high watermark when none was). */
  offsetsAt(topic: string, timeMs: number): Promise<Array<{ partition: number; offset: string }>>;
  /** Reads offsets [from, to) of the given partitions, in order per partition, without a consumer group; resolves when all are read. */
  read(topic: string, ranges: PartitionRange[], handler: (messages: ConsumedMessage[]) => Promise<void>): Promise<void>;
  /** Sets the positions a consumer group resumes from; refused (permanent) while the group has running members. */
  setGroupOffsets(groupId: string, positions: TopicPosition[]): Promise<void>;
  /** Rejects when the log cannot currently take writes. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The message log's failures, in devtrail's one vocabulary (contract failure.ts). */
export class MessageLogError extends Failure {
  constructor(message: string, retryable: boolean) {
    super(message, retryable, 'message-log');
  }
}
