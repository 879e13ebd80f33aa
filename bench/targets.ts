import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient, ClickHouseLogLevel } from '@clickhouse/client';
import { Kafka, logLevel } from 'kafkajs';
import { freePort, pipeline, ROOT, type Pipeline, type ServiceProcess } from '../test/support/processes.ts';
import { STACK } from '../test/support/stack.ts';
import { welcomeOf } from '../test/support/log-lines.ts';
import { freshKey } from '../test/support/embedded-process.ts';
import { cmdline, descendants } from './proc-memory.ts';
import { clickhouseLookup, readApiLookup } from './lookups.ts';
import { stackPids } from './cpu-usage.ts';
import type { Lookup } from './visibility.ts';

// What the load is pointed at. Distributed: the real service processes in an isolated
// namespace of the local stack (test/support/processes.ts: own topic prefix, consumer
// groups, ClickHouse database and PostgreSQL database). Embedded: `npm start` with a
// temporary data directory. Either way the bench owns everything it starts and removes it.

export interface Target {
  mode: 'distributed' | 'embedded';
  receiverUrl: string;
  apiKey: string;
  projectId: string;
  receiverPid: number;
  /** Processes whose /metrics carry consumer counters. */
  consumers: Array<{ label: string; url: string; pid: number }>;
  /** Processes whose CPU time is reported (cpu-usage.ts). */
  processes: Record<string, () => number[]>;
  lookup: Lookup;
  /** Distributed: the namespace's topic prefix (the visibility breakdown reads the logs topic). */
  topicPrefix?: string;
  /** Last output of the spawned processes, for a failure report. */
  output(): string;
  close(): Promise<void>;
}

export interface TargetOptions {
  env: Record<string, string>;
  consumers: number;
  cpuProf: string | null;
  runTag: string;
  log: (msg: string) => void;
}

/** Environment that makes a service write a V8 CPU profile when it exits (bench/cpu-profiler.mjs). */
export function cpuProfEnv(dir: string | null, name: string): Record<string, string> {
  if (!dir) return {};
  const abs = resolve(ROOT, dir);
  mkdirSync(abs, { recursive: true });
  return {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${resolve(ROOT, 'bench/cpu-profiler.mjs')}`.trim(),
    BENCH_CPU_PROF_DIR: abs,
    BENCH_CPU_PROF_NAME: name,
  };
}

/** Deletes the namespace's topics and consumer groups (the harness leaves them in Kafka). */
export async function deleteTopics(topicPrefix: string, groupPrefix?: string): Promise<void> {
  const admin = new Kafka({ clientId: 'bench-cleanup', brokers: STACK.kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    if (groupPrefix) {
      const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(groupPrefix));
      if (groups.length) await admin.deleteGroups(groups).catch(() => {});
    }
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(topicPrefix));
    if (mine.length) await admin.deleteTopics({ topics: mine, timeout: 10_000 });
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

export async function createProject(dashboardUrl: string, token: string, name: string): Promise<{ id: string; key: string }> {
  const r = await fetch(`${dashboardUrl}/api/admin/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    // The default 5,000 requests a minute would cap the bench at 83 requests/s.
    body: JSON.stringify({ name, rate_limit_per_minute: 10_000_000 }),
  });
  if (r.status !== 201) throw new Error(`creating a project: ${r.status} ${await r.text()}`);
  const b = (await r.json()) as { project: { id: string }; api_key: string };
  return { id: b.project.id, key: b.api_key };
}

export async function startDistributed(o: TargetOptions): Promise<Target & { pipeline: Pipeline }> {
  const p = await pipeline({ ...o.env });
  const procs: ServiceProcess[] = [];
  const ch = createClient({ url: STACK.clickhouseUrl, request_timeout: 30_000, log: { level: ClickHouseLogLevel.OFF } });
  const closeAll = async () => {
    await p.close();
    await ch.close().catch(() => {});
    await deleteTopics(p.env.KAFKA_TOPIC_PREFIX, p.env.CONSUMER_GROUP_PREFIX).catch((err) => o.log(`could not delete topics: ${(err as Error).message}`));
  };
  try {
    o.log(`namespace ${p.ns}: starting receiver, ${o.consumers} consumers process(es), dashboard`);
    const receiver = await p.start('receiver', cpuProfEnv(o.cpuProf, 'receiver'));
    procs.push(receiver);
    const consumers: Target['consumers'] = [];
    for (let i = 0; i < o.consumers; i++) {
      const c = await p.start('consumers', cpuProfEnv(o.cpuProf, `consumers${i + 1}`));
      procs.push(c);
      consumers.push({ label: `consumers#${i + 1}`, url: c.url, pid: c.child.pid! });
    }
    const dashboard = await p.start('dashboard');
    procs.push(dashboard);
    const project = await createProject(dashboard.url, p.operatorToken, `bench-${o.runTag}`);
    return {
      mode: 'distributed',
      pipeline: p,
      receiverUrl: receiver.url,
      apiKey: project.key,
      projectId: project.id,
      receiverPid: receiver.child.pid!,
      consumers,
      processes: {
        receiver: () => [receiver.child.pid!],
        ...Object.fromEntries(consumers.map((c) => [c.label, () => [c.pid]])),
        dashboard: () => [dashboard.child.pid!],
        ...stackPids(),
      },
      lookup: clickhouseLookup(ch, p.env.CLICKHOUSE_DATABASE, project.id),
      topicPrefix: p.env.KAFKA_TOPIC_PREFIX,
      output: () => procs.map((x) => `--- ${x.name}\n${x.output().slice(-3000)}`).join('\n'),
      close: closeAll,
    };
  } catch (err) {
    await closeAll().catch(() => {});
    throw err;
  }
}

function waitExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

export async function startEmbedded(o: TargetOptions): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'devtrail-bench-'));
  const port = await freePort();
  let out = '';
  o.log(`embedded: npm start on :${port}, data in ${dataDir}`);
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...o.env,
      ...cpuProfEnv(o.cpuProf, 'embedded'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DEVTRAIL_DATA_DIR: dataDir,
      LOG_LEVEL: o.env.LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out = (out + d).slice(-50_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-50_000)));
  // The node process that runs main.ts (npm -> sh -> tsx -> node): the deepest one naming it.
  const mainPid = () => {
    const named = descendants(child.pid!).filter((pid) => cmdline(pid).includes('services/embedded/src/main.ts'));
    return named.find((pid) => !descendants(pid).some((d) => named.includes(d)));
  };
  const close = async () => {
    const pid = mainPid();
    if (pid) process.kill(pid, 'SIGTERM');
    else child.kill('SIGTERM');
    const timer = setTimeout(() => {
      for (const d of descendants(child.pid!)) process.kill(d, 'SIGKILL');
      child.kill('SIGKILL');
    }, 60_000);
    await waitExit(child);
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 120_000;
    let info: { token: string; projectId: string; key: string } | undefined;
    while (!info) {
      if (child.exitCode !== null) throw new Error(`embedded process exited early:\n${out}`);
      if (Date.now() > deadline) throw new Error(`embedded process did not print its key in 120 s:\n${out}`);
      const w = welcomeOf(out);
      // Secrets are never logged: the token from its file, a key from revoke-key (as an operator would).
      if (w?.project) {
        const token = readFileSync(w.operator_token_file, 'utf8').trim();
        info = { token, projectId: w.project.id, key: await freshKey(`http://127.0.0.1:${port}`, token, w.project.id) };
      } else await new Promise((r) => setTimeout(r, 200));
    }
    const base = `http://127.0.0.1:${port}`;
    const r = await fetch(`${base}/api/admin/projects/${info.projectId}/rate-limit`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rate_limit_per_minute: 10_000_000 }),
    });
    if (!r.ok) throw new Error(`raising the rate limit: ${r.status} ${await r.text()}`);
    const pid = mainPid();
    if (!pid) throw new Error('could not find the embedded node process');
    return {
      mode: 'embedded',
      receiverUrl: base,
      apiKey: info.key,
      projectId: info.projectId,
      receiverPid: pid,
      consumers: [{ label: 'embedded', url: base, pid }],
      processes: { 'embedded process': () => [pid] },
      lookup: readApiLookup(base, info.token, info.projectId, o.runTag),
      output: () => out.slice(-5000),
      close,
    };
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
}
