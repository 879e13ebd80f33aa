import { spawn } from 'node:child_process';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { ROOT } from './processes.ts';

// The local three-node Kafka cluster (deploy/scripts/kafka-cluster.sh) for fault tests
// of a broker loss. Its addresses come from the script, which owns them.

export type ClusterAction = 'up' | 'down' | 'status' | 'env' | 'start' | 'stop' | 'kill';

/** Runs kafka-cluster.sh; resolves with its exit code and output. */
export function clusterScript(action: ClusterAction, node?: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const args = ['deploy/scripts/kafka-cluster.sh', action, ...(node === undefined ? [] : [String(node)])];
    const c = spawn('bash', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (out += d));
    c.on('exit', (code) => resolve({ code, out }));
  });
}

export async function mustCluster(action: ClusterAction, node?: number): Promise<string> {
  const r = await clusterScript(action, node);
  if (r.code !== 0) throw new Error(`kafka-cluster.sh ${action} ${node ?? ''} failed (${r.code}):\n${r.out}`);
  return r.out;
}

/** KAFKA_BROKERS and KAFKA_REPLICATION_FACTOR for the cluster, as `kafka-cluster.sh env` prints them. */
export async function clusterEnv(): Promise<{ KAFKA_BROKERS: string; KAFKA_REPLICATION_FACTOR: string }> {
  const out = await mustCluster('env');
  const get = (name: string) => {
    const m = new RegExp(`^export ${name}=(.+)$`, 'm').exec(out);
    if (!m) throw new Error(`kafka-cluster.sh env printed no ${name}:\n${out}`);
    return m[1].trim();
  };
  return { KAFKA_BROKERS: get('KAFKA_BROKERS'), KAFKA_REPLICATION_FACTOR: get('KAFKA_REPLICATION_FACTOR') };
}

export interface PartitionLayout {
  topic: string;
  partition: number;
  leader: number;
  replicas: number[];
  isr: number[];
}

/**
 * Leader, replicas and in-sync replicas of every partition of the topics, from the
 * cluster's metadata (any live broker of the list answers).
 */
export async function partitionLayout(brokers: string[], topics: string[]): Promise<PartitionLayout[]> {
  const admin = new Kafka({ clientId: 'e2e-cluster-layout', brokers, logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 100 } }).admin();
  await admin.connect();
  try {
    const meta = await admin.fetchTopicMetadata({ topics });
    return meta.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partitionId, leader: p.leader, replicas: p.replicas, isr: p.isr })));
  } finally {
    await admin.disconnect();
  }
}

/** The node id that leads the most of these partitions. */
export function busiestLeader(layout: PartitionLayout[]): { node: number; leads: number } {
  const counts = new Map<number, number>();
  for (const p of layout) counts.set(p.leader, (counts.get(p.leader) ?? 0) + 1);
  const [node, leads] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  return { node, leads };
}

/** A topic's effective config value (the topic's own, or the broker default it falls back to). */
export async function topicConfigValue(brokers: string[], topic: string, name: string): Promise<string | undefined> {
  const admin = new Kafka({ clientId: 'e2e-cluster-config', brokers, logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 100 } }).admin();
  await admin.connect();
  try {
    const r = await admin.describeConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: [name] }], includeSynonyms: false });
    return r.resources[0]?.configEntries.find((e) => e.configName === name)?.configValue;
  } finally {
    await admin.disconnect();
  }
}
