import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@clickhouse/client';
import { poisonPrefix } from './dead-letters.ts';
import { createTestDatabase } from './pg-database.ts';
import { ROOT } from './root.ts';
import { STACK } from './stack.ts';

// Black-box harness: the real service processes (node main.ts) against the real local
// stack, each suite in its own namespace (topic prefix, consumer groups, ClickHouse
// database, PostgreSQL database) so suites never see each other's data.

export { ROOT };

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the admin CLI (`npm run devtrail -- <args>`) from the repository, with `env` added to this process's environment. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    const c = spawn(process.execPath, ['--import', 'tsx', 'services/admin-cli/src/main.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    c.stdout.on('data', (d) => (stdout += d));
    c.stderr.on('data', (d) => (stderr += d));
    c.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface ServiceProcess {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** The last 20,000 characters of stdout and stderr together (for error messages). */
  output: () => string;
  /** Everything the process wrote to stdout, and to stderr, since it started. */
  stdout: () => string;
  stderr: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

export interface Pipeline {
  env: Record<string, string>;
  /** The engines its processes run on. */
  engines: Engines;
  ns: string;
  operatorToken: string;
  start(name: 'receiver' | 'consumers' | 'dashboard', extraEnv?: Record<string, string>): Promise<ServiceProcess>;
  stop(p: ServiceProcess, signal?: NodeJS.Signals): Promise<void>;
  /** Every process started so far, stopped ones included (their output stays readable). */
  started(): ServiceProcess[];
  cli(args: string[], api: ServiceProcess): Promise<CliResult>;
  /** Counts rows in the namespace's ClickHouse database (FINAL: what the read API sees). */
  count(table: string, where?: string, params?: Record<string, unknown>): Promise<number>;
  close(): Promise<void>;
}

const ENTRY = { receiver: 'services/receiver/src/main.ts', consumers: 'services/consumers/src/main.ts', dashboard: 'services/dashboard/src/main.ts' };

async function waitHealthy(url: string, proc: ServiceProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited early:\n${proc.output()}`);
    try {
      const r = await fetch(`${url}/health`);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${proc.name} not healthy after ${timeoutMs} ms:\n${proc.output()}`);
}

/** The engines a pipeline runs on: the shared local stack's, or a suite's own (private-engine.ts). */
export interface Engines {
  kafkaBrokers: string[];
  clickhouseUrl: string;
  postgresUrl: string;
}

/**
 * `sendsPoison`: the suite dead-letters on purpose; its topics are marked so (test/final/dead-letters.test.ts).
 * `engines`: engines of the suite's own in place of the shared stack's.
 */
export async function pipeline(extraEnv: Record<string, string> = {}, opts: { sendsPoison?: boolean; engines?: Partial<Engines> } = {}): Promise<Pipeline> {
  const engines: Engines = { ...STACK, ...opts.engines };
  const ns = randomBytes(4).toString('hex');
  const topicPrefix = opts.sendsPoison ? `${poisonPrefix('e2e', ns)}.` : `e2e-${ns}.`;
  const db = await createTestDatabase(engines.postgresUrl);
  const operatorToken = `op_${randomBytes(16).toString('hex')}`;
  // The dashboard writes its setup code there while no owner exists.
  const dataDir = mkdtempSync(join(tmpdir(), `dt-e2e-${ns}-`));
  const env: Record<string, string> = {
    DEVTRAIL_DATA_DIR: dataDir,
    KAFKA_BROKERS: engines.kafkaBrokers.join(','),
    CLICKHOUSE_URL: engines.clickhouseUrl,
    CLICKHOUSE_DATABASE: `e2e_${ns}`,
    DATABASE_URL: db.url,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    CONSUMER_GROUP_PREFIX: `e2e-${ns}-`,
    DEVTRAIL_OPERATOR_TOKEN: operatorToken,
    LOG_LEVEL: 'warn',
    CONSUMER_BATCH_MS: '500',
    ...extraEnv,
  };
  const procs = new Set<ServiceProcess>();
  const everStarted: ServiceProcess[] = [];
  const ch = createClient({ url: engines.clickhouseUrl });

  const start: Pipeline['start'] = async (name, more = {}) => {
    const port = await freePort();
    const portVar = name === 'receiver' ? 'PORT' : name === 'dashboard' ? 'DASHBOARD_PORT' : 'CONSUMER_METRICS_PORT';
    let out = '';
    const stdout: string[] = [];
    const stderr: string[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY[name]], {
      cwd: ROOT,
      env: { ...process.env, ...env, ...more, [portVar]: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => (stdout.push(d), (out = (out + d).slice(-20_000))));
    child.stderr!.on('data', (d: string) => (stderr.push(d), (out = (out + d).slice(-20_000))));
    // 'close', not 'exit': by then both pipes are drained, so stdout() and stderr() are complete.
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const proc: ServiceProcess = {
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      child,
      output: () => out,
      stdout: () => stdout.join(''),
      stderr: () => stderr.join(''),
      exited,
    };
    procs.add(proc);
    everStarted.push(proc);
    await waitHealthy(proc.url, proc);
    return proc;
  };

  const stop: Pipeline['stop'] = async (p, signal = 'SIGTERM') => {
    procs.delete(p);
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
    const timer = setTimeout(() => p.child.kill('SIGKILL'), 20_000);
    await p.exited;
    clearTimeout(timer);
  };

  return {
    env,
    engines,
    ns,
    operatorToken,
    start,
    stop,
    started: () => [...everStarted],
    cli: (args, api) => runCli(args, { DEVTRAIL_API_URL: api.url, DEVTRAIL_OPERATOR_TOKEN: operatorToken }),
    async count(table, where = '1', params = {}) {
      const r = await ch.query({ query: `SELECT count() AS n FROM e2e_${ns}.${table} FINAL WHERE ${where}`, query_params: params, format: 'JSONEachRow' });
      const [row] = await r.json<{ n: string }>();
      return Number(row.n);
    },
    async close() {
      await Promise.all([...procs].map((p) => stop(p)));
      await ch.command({ query: `DROP DATABASE IF EXISTS e2e_${ns}` }).catch(() => {});
      await ch.close();
      await db.drop().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON to the receiver with a key; returns status and parsed body. */
export async function ingest(receiver: ServiceProcess, path: string, key: string, body: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(`${receiver.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: r.status, body: json, headers: r.headers };
}

export async function apiGet(dashboard: ServiceProcess, token: string, path: string) {
  const r = await fetch(`${dashboard.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: r.status, body: (await r.json()) as any };
}
