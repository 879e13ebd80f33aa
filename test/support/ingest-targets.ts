import { topicNames } from '@devtrail/contract';
import { EVENT_KINDS } from '@devtrail/kinds';
import { createKafkaLog, type ConsumedMessage } from '@devtrail/message-log';
import { startEmbeddedProcess } from './embedded-process.ts';
import { pipeline, type ServiceProcess } from './processes.ts';
import { STACK } from './stack.ts';

// One face for the two ways devtrail runs, so a suite can send the same requests to both:
// the distributed pipeline (receiver, consumers, dashboard processes on the real local
// stack) and the embedded process. Both are real processes on real sockets.

export type TargetMode = 'distributed' | 'embedded';

export interface IngestTarget {
  mode: TargetMode;
  /** Base URL of the process that answers /ingest/* (changes after restartIngest in distributed mode). */
  ingestUrl(): string;
  project: { id: string; key: string };
  /** GET /api/projects/:id<path> on the read API with the operator token. */
  read(path: string): Promise<{ status: number; body: any }>;
  /** Every message on the kinds' topics (distributed mode; the embedded log is inside its process). */
  producedMessages?(): Promise<ConsumedMessage[]>;
  /** deadLettered per sink, from the consumers' /metrics. */
  deadLettered(): Promise<Record<string, number>>;
  ingestAlive(): boolean;
  /** The ingest process's exit code or signal and the tail of its output, for failure messages. */
  describeIngestDeath(): string;
  restartIngest(): Promise<void>;
  close(): Promise<void>;
}

// Far above what a suite sends: a 429 would hide the answer under test.
const RATE_LIMIT = { RATE_LIMIT_PER_MINUTE: '10000000' };

async function json(url: string, token: string) {
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await r.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: r.status, body };
}

const deadLetteredOf = (consumers: Array<{ name: string; deadLettered: number }>) => Object.fromEntries(consumers.map((c) => [c.name, c.deadLettered]));

const death = (exitCode: number | null, signal: string | null, output: string) => `exit code ${exitCode}, signal ${signal}; last output:\n${output.slice(-4000)}`;

export async function distributedTarget(): Promise<IngestTarget> {
  const p = await pipeline(RATE_LIMIT);
  let receiver: ServiceProcess = await p.start('receiver');
  const consumers = await p.start('consumers');
  const dashboard = await p.start('dashboard');
  const created = await p.cli(['project', 'create', 'fuzz', '--json'], dashboard);
  if (created.code !== 0) throw new Error(`project create failed: ${created.stderr}`);
  const c = JSON.parse(created.stdout);
  const project = { id: c.project.id as string, key: c.api_key as string };
  return {
    mode: 'distributed',
    ingestUrl: () => receiver.url,
    project,
    read: (path) => json(`${dashboard.url}/api/projects/${project.id}${path}`, p.operatorToken),
    async producedMessages() {
      const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'produced-messages' });
      const topics = topicNames(p.env.KAFKA_TOPIC_PREFIX);
      const out: ConsumedMessage[] = [];
      try {
        for (const kind of EVENT_KINDS) {
          const marks = await log.watermarks(topics.of(kind));
          await log.read(
            topics.of(kind),
            marks.map((m) => ({ partition: m.partition, from: m.low, to: m.high })),
            async (ms) => void out.push(...ms),
          );
        }
      } finally {
        await log.close();
      }
      return out;
    },
    deadLettered: async () => deadLetteredOf((await (await fetch(`${consumers.url}/metrics`, { headers: { accept: 'application/json' } })).json()).consumers),
    ingestAlive: () => receiver.child.exitCode === null && receiver.child.signalCode === null,
    describeIngestDeath: () => death(receiver.child.exitCode, receiver.child.signalCode, receiver.output()),
    async restartIngest() {
      await p.stop(receiver);
      receiver = await p.start('receiver');
    },
    close: () => p.close(),
  };
}

export async function embeddedTarget(): Promise<IngestTarget> {
  const e = await startEmbeddedProcess(RATE_LIMIT);
  return {
    mode: 'embedded',
    ingestUrl: () => e.url,
    project: e.project,
    read: (path) => json(`${e.url}/api/projects/${e.project.id}${path}`, e.operatorToken),
    deadLettered: async () => deadLetteredOf((await (await fetch(`${e.url}/metrics`, { headers: { accept: 'application/json' } })).json()).consumers),
    ingestAlive: e.alive,
    describeIngestDeath: () => death(e.child.exitCode, e.child.signalCode, e.output()),
    restartIngest: () => e.restart(),
    close: () => e.close(),
  };
}

export const TARGETS: Record<TargetMode, () => Promise<IngestTarget>> = { distributed: distributedTarget, embedded: embeddedTarget };
