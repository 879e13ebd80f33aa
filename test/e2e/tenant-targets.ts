import { readFileSync } from 'node:fs';
import { startEmbeddedProcess } from '../support/embedded-process.ts';
import { pipeline } from '../support/processes.ts';

// devtrail as a user runs it, for the tenant-bounds attacks (tenant-attacks.test.ts, tenant-limits.test.ts): `npm start`'s
// one process, or the distributed services (receiver, consumers, dashboard) on the local stack.
// Driven only through their front doors; their processes are watched from outside (/health, RSS).

export type Mode = 'embedded' | 'distributed';

export interface Tenant {
  id: string;
  key: string;
}

export interface Watched {
  name: string;
  url: string;
  pid: number;
}

export interface Target {
  mode: Mode;
  /** Where events are sent (the receiver). */
  ingestUrl: string;
  /** Where the admin and read APIs are (the dashboard). */
  apiUrl: string;
  operatorToken: string;
  /** The processes serving the front doors, each with its /health. */
  processes: Watched[];
  /** The process that serves the read API (its RSS for exports). */
  reader: Watched;
  close(): Promise<void>;
}

/** Settings both modes take (a consumer batch short enough to see a log within the visibility bound). */
const COMMON = { CONSUMER_BATCH_MS: '300', LOG_LEVEL: 'warn' };

export async function startTarget(mode: Mode, env: Record<string, string> = {}): Promise<Target> {
  if (mode === 'embedded') {
    const dt = await startEmbeddedProcess({ ...COMMON, ...env });
    const one = { name: 'embedded', url: dt.url, pid: dt.child.pid! };
    return { mode, ingestUrl: dt.url, apiUrl: dt.url, operatorToken: dt.operatorToken, processes: [one], reader: one, close: () => dt.close() };
  }
  // The dev stand-in is one engine connection, as embedded mode's chdb: its reads are limited as embedded mode's are (docs/configuration.md).
  const p = await pipeline({ ...COMMON, READ_MAX_EXECUTION_MS: '500', ...env });
  try {
    const receiver = await p.start('receiver');
    await p.start('consumers');
    const dashboard = await p.start('dashboard');
    const watched = (s: typeof receiver) => ({ name: s.name, url: s.url, pid: s.child.pid! });
    return {
      mode,
      ingestUrl: receiver.url,
      apiUrl: dashboard.url,
      operatorToken: p.operatorToken,
      processes: [watched(receiver), watched(dashboard)],
      reader: watched(dashboard),
      close: () => p.close(),
    };
  } catch (err) {
    await p.close();
    throw err;
  }
}

/** A call of the admin or read API with the operator token. */
export function api(t: Target, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${t.apiUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${t.operatorToken}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers as Record<string, string>) },
  });
}

export async function newTenant(t: Target, name: string): Promise<Tenant> {
  const r = await api(t, '/api/admin/projects', { method: 'POST', body: JSON.stringify({ name }) });
  if (r.status !== 201) throw new Error(`creating ${name}: ${r.status} ${await r.text()}`);
  const body = (await r.json()) as { project: { id: string }; api_key: string };
  return { id: body.project.id, key: body.api_key };
}

/** POSTs a JSON body (or bytes) to the receiver with the tenant's key; the status. */
export async function send(t: Target, tenant: Tenant, path: string, body: unknown): Promise<number> {
  const r = await fetch(`${t.ingestUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
    body: Buffer.isBuffer(body) ? (body as Buffer<ArrayBuffer>) : JSON.stringify(body),
  });
  await r.arrayBuffer();
  return r.status;
}

export const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

/** Wall time of a call, in ms, with its result. */
export async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await f();
  return { ms: performance.now() - t0, result };
}

export interface Watch<T> {
  result: T;
  /** The worst /health latency of each watched process, ms (Infinity: one went unanswered). */
  worstMs: Record<string, number>;
  polls: number;
  /** The reader's RSS growth during the attack, MB. */
  rssGrowthMb: number;
}

/** Runs an attack while each process's /health is polled every 50 ms and the reader's RSS sampled. */
export async function watch<T>(t: Target, attack: () => Promise<T>): Promise<Watch<T>> {
  const worstMs: Record<string, number> = Object.fromEntries(t.processes.map((p) => [p.name, 0]));
  const base = rssMb(t.reader.pid);
  let peak = base;
  const polls: Promise<void>[] = [];
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(t.reader.pid));
    for (const p of t.processes) {
      const t0 = performance.now();
      polls.push(
        fetch(`${p.url}/health`).then(
          async (r) => {
            await r.arrayBuffer();
            worstMs[p.name] = Math.max(worstMs[p.name], performance.now() - t0);
          },
          () => {
            worstMs[p.name] = Number.POSITIVE_INFINITY;
          },
        ),
      );
    }
  }, 50);
  try {
    const result = await attack();
    // A few polls after it: a stall that begins as the attack's answer is sent shows too.
    await new Promise((r) => setTimeout(r, 250));
    return { result, worstMs, polls: polls.length, rssGrowthMb: peak - base };
  } finally {
    clearInterval(timer);
    await Promise.all(polls);
  }
}

/** The worst of a watch's processes. */
export const worstOf = (w: { worstMs: Record<string, number> }) => Math.max(...Object.values(w.worstMs));

export const json = async (r: Response) => (await r.json()) as Record<string, any>;
const WORDS = ['order', 'placed', 'cart', 'payment', 'retry', 'timeout', 'user', 'session', 'cache', 'miss', 'queue', 'worker', 'shipped', 'invoice', 'refund', 'stock'];
const sentence = (seed: number, words: number) => Array.from({ length: words }, (_, k) => WORDS[(seed * 7 + k * 13) % WORDS.length]).join(' ');

/** Sends `n` logs of ~550 characters to the tenant, 1,000 a request. */
export async function seedLogs(t: Target, tenant: Tenant, n: number, service = 'bulk') {
  for (let i = 0; i * 1000 < n; i++) {
    const logs = Array.from({ length: Math.min(1000, n - i * 1000) }, (_, j) => ({
      level: j % 10 === 0 ? 'warn' : 'info',
      message: `row ${i}-${j} ${sentence(i * 1000 + j, 80)}`,
      metadata: { n: j, user: `u${j % 97}` },
    }));
    const status = await send(t, tenant, '/ingest/logs', { service, logs });
    if (status !== 200) throw new Error(`seeding logs: ${status}`);
  }
}

/** The tenant's logs of a service the read API counts (the histogram): all of them once the consumers caught up. */
export async function storedLogs(t: Target, tenant: Tenant, service = 'bulk'): Promise<number> {
  const v = await json(await api(t, `/api/projects/${tenant.id}/logs/volume?service=${service}`));
  return Object.values((v.levels ?? {}) as Record<string, number[]>).reduce((n, series) => n + series.reduce((a, b) => a + b, 0), 0);
}
