import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded-process.ts';

// One project cannot hurt another (docs/security.md, "Bounds"): the attacks of the review, with
// their own numbers, against `npm start` (its own process, as users run it), while this process
// polls GET /health every 50 ms and samples the process's RSS. The stall is the worst /health
// latency during an attack (bound 500 ms on this machine). Each attack used to stall the process
// for seconds (scrubbing 3.9 s, source maps 13.9 s), run its memory out (source maps: +680 MB a
// map, then a hang), or hold a fresh log back for 29 s (searches). As in stall.test.ts, a timed
// attack runs twice and the better of the two counts: a stall the attack causes shows both times,
// a neighbour's load on this shared machine rarely does.

const STALL_BOUND_MS = 500;
/** The source-map worker's heap (384 MB) and young generation (48 MB), the bodies in flight, and slack (docs/source-maps.md, "Budgets"). */
const RSS_BOUND_MB = 600;
let dt: EmbeddedProcess;
const op = () => ({ authorization: `Bearer ${dt.operatorToken}`, 'content-type': 'application/json' });
const api = (path: string, init: RequestInit = {}) => fetch(`${dt.url}${path}`, { ...init, headers: { ...op(), ...(init.headers as Record<string, string>) } });

const rssMb = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${dt.child.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

/** Runs an attack while /health is polled every 50 ms and RSS sampled: the worst latency and the RSS growth. */
async function watch<T>(attack: () => Promise<T>): Promise<{ result: T; worstMs: number; rssGrowthMb: number; polls: number }> {
  const base = rssMb();
  let peak = base;
  let worstMs = 0;
  const polls: Promise<void>[] = [];
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb());
    const t0 = performance.now();
    polls.push(
      fetch(`${dt.url}/health`).then(
        async (r) => {
          await r.arrayBuffer();
          worstMs = Math.max(worstMs, performance.now() - t0);
        },
        () => {
          worstMs = Number.POSITIVE_INFINITY;
        },
      ),
    );
  }, 50);
  try {
    const result = await attack();
    await new Promise((r) => setTimeout(r, 200)); // and a few polls after it
    return { result, worstMs, rssGrowthMb: peak - base, polls: polls.length };
  } finally {
    clearInterval(timer);
    await Promise.all(polls);
  }
}

beforeAll(async () => {
  dt = await startEmbeddedProcess();
}, 120_000);
afterAll(async () => dt?.close());

describe('one project cannot hurt another', () => {
  it('source maps: three ~31 MiB maps that decode to ~680 MB each are refused at upload (413), no stall, RSS bounded', async () => {
    const made = await api(`/api/projects/${dt.project.id}/upload-tokens`, { method: 'POST', body: JSON.stringify({ name: 'attack' }) });
    const { token } = (await made.json()) as { token: string };
    // Built before the watch: this process's own work on 31 MiB strings would show as a stall.
    const mappings = 'AAAA,'.repeat(Math.floor((31 * 1024 * 1024) / 5));
    const bodies = ['a', 'b', 'c'].map((name) =>
      Buffer.from(JSON.stringify({ release: 'r1', url: `~/static/${name}.js`, source_map: { version: 3, sources: ['b.js'], names: [], mappings } })),
    );
    const attack = () =>
      watch(async () => {
        const answers = [];
        for (const body of bodies) {
          const res = await fetch(`${dt.url}/api/projects/${dt.project.id}/source-maps`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body,
          });
          answers.push({ status: res.status, body: (await res.json()) as { error?: string } });
        }
        return answers;
      });
    const runs = [await attack(), await attack()];
    for (const r of runs) console.log(`source-map attack: /health worst ${r.worstMs.toFixed(0)} ms over ${r.polls} polls, RSS +${r.rssGrowthMb.toFixed(0)} MB`);
    const result = runs.flatMap((r) => r.result);
    const worstMs = Math.min(...runs.map((r) => r.worstMs));
    const rssGrowthMb = Math.max(...runs.map((r) => r.rssGrowthMb));
    for (const a of result) {
      expect(a.status).toBe(413);
      expect(a.body.error).toMatch(/^Source map too expensive to decode: it needs about \d+ MB decoded \(\d+ segments\), more than the source-map worker's 384 MB allow/);
    }
    expect(dt.alive()).toBe(true);
    expect(worstMs).toBeLessThan(STALL_BOUND_MS);
    expect(rssGrowthMb).toBeLessThan(RSS_BOUND_MB);
  }, 120_000);

  it('scrubbing: the hostile rule is refused when saved; the worst allowed one over 10,000 hostile characters stalls nothing and stores no value unscrubbed', async () => {
    const hostile = Array.from({ length: 12 }, (_, i) => `[a-z]{1,999}${i}`).join('|');
    const refused = await api(`/api/admin/projects/${dt.project.id}/scrubbing`, {
      method: 'PUT',
      body: JSON.stringify({ rules: [{ match: 'regex', pattern: hostile }] }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('Too expensive');
    const worst = '(?:a|aa){1,75}b';
    const saved = await api(`/api/admin/projects/${dt.project.id}/scrubbing`, {
      method: 'PUT',
      body: JSON.stringify({ rules: [{ match: 'regex', pattern: worst, action: 'mask' }] }),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    await new Promise((r) => setTimeout(r, 1500)); // the receiver's cached grant follows the change (NOTIFY)
    const message = 'ab:'.repeat(3334).slice(0, 10_000);
    const send = (service: string, m: string) =>
      fetch(`${dt.url}/ingest/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dt.project.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ service, logs: [{ level: 'info', message: m }] }),
      }).then((r) => r.status);
    const { result, worstMs, polls } = await watch(async () => {
      const statuses = [];
      for (let round = 0; round < 4; round++) statuses.push(...(await Promise.all(Array.from({ length: 5 }, () => send('scrub-attack', message)))));
      return statuses;
    });
    console.log(`scrubbing attack (20 logs of 10,000 characters): /health worst ${worstMs.toFixed(0)} ms over ${polls} polls`);
    expect(polls).toBeGreaterThan(3);
    expect(result).toEqual(Array(20).fill(200));
    expect(worstMs).toBeLessThan(STALL_BOUND_MS);
    expect(await send('scrub-small', 'id aab here')).toBe(200);
    const logs = async (service: string) => {
      const r = await api(`/api/projects/${dt.project.id}/logs?service=${service}&limit=10`);
      return ((await r.json()) as { logs: Array<{ message: string }> }).logs;
    };
    await expect.poll(async () => (await logs('scrub-attack')).length, { timeout: 15_000 }).toBe(10);
    expect((await logs('scrub-attack')).every((l) => l.message === '[Filtered]')).toBe(true);
    await expect.poll(async () => (await logs('scrub-small'))[0]?.message, { timeout: 15_000 }).toBe('id *** here');
  }, 60_000);

  it('searches: the hostile search is a 400; three of the worst allowed, run over and over, leave a fresh log visible within 3 s', async () => {
    // 30,000 logs with dotted metadata, the shape the hostile search works on.
    for (let i = 0; i < 30; i++) {
      const logs = Array.from({ length: 1000 }, (_, j) => ({
        level: 'info',
        message: `row ${i}-${j} ${'x'.repeat(80)}`,
        metadata: { a: { b: `v${j}z${j % 97}` }, n: j },
      }));
      const r = await fetch(`${dt.url}/ingest/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dt.project.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ service: 'bulk', logs }),
      });
      expect(r.status).toBe(200);
    }
    const range = `from=${Date.now() - 3600_000}&to=${Date.now() + 600_000}`;
    const search = (q: string) => api(`/api/projects/${dt.project.id}/logs?${range}&limit=100&q=${encodeURIComponent(q)}`);
    const hostile = Array.from({ length: 64 }, (_, i) => `a.b:*z${i}*`).join(' OR ');
    const refused = await search(hostile);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('more than 8 metadata keys');
    await expect.poll(async () => ((await (await search('service:bulk')).json()) as { logs: unknown[] }).logs.length, { timeout: 30_000 }).toBe(100);

    const worst = `${Array.from({ length: 4 }, (_, i) => `a.b:*z${i}1*`).join(' OR ')} OR *q1* OR *q2* OR *q3* OR *q4*`;
    let running = true;
    const slowest: number[] = [];
    const statuses = new Set<number>();
    const searcher = async () => {
      while (running) {
        const t0 = performance.now();
        const r = await search(worst);
        await r.arrayBuffer();
        statuses.add(r.status);
        slowest.push(performance.now() - t0);
      }
    };
    const searchers = [searcher(), searcher(), searcher()];
    await new Promise((r) => setTimeout(r, 1000));
    const fresh = async () => {
      const marker = `fresh-${Date.now()}`;
      const sentAt = performance.now();
      const sent = await fetch(`${dt.url}/ingest/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dt.project.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ service: 'fresh', logs: [{ level: 'info', message: marker }] }),
      });
      expect(sent.status).toBe(200);
      while (performance.now() - sentAt < 15_000) {
        const r = await api(`/api/projects/${dt.project.id}/logs?service=fresh&limit=1`);
        if (r.status === 200 && ((await r.json()) as { logs: Array<{ message: string }> }).logs[0]?.message === marker) return performance.now() - sentAt;
        await new Promise((r) => setTimeout(r, 100));
      }
      return Number.POSITIVE_INFINITY;
    };
    const seen = [await fresh(), await fresh()];
    const visibleMs = Math.min(...seen);
    running = false;
    await Promise.all(searchers);
    console.log(
      `search attack: fresh log visible after ${seen.map((ms) => ms.toFixed(0)).join(' and ')} ms; ${slowest.length} hostile searches, slowest ${Math.max(...slowest).toFixed(0)} ms, statuses ${[...statuses]}`,
    );
    expect(visibleMs).toBeLessThan(3000);
    expect([...statuses].every((s) => s === 200 || s === 503)).toBe(true);
  }, 120_000);
});
