import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '../libs/http/src/http-app.ts';

// `npx tsx bench/http-overhead.ts [before.ts]`: CPU microseconds per request of what
// createHttpApp puts around every route (CORS, hooks, error mapping), through inject: an ingest
// POST from a browser (Origin) and a dashboard GET. With a second module path (the same file at
// an earlier commit), the two apps run interleaved in this process and both figures print.

type Make = typeof createHttpApp;

async function appOf(make: Make): Promise<FastifyInstance> {
  const app = await make(pino({ level: 'silent' }), 5_000_000);
  app.post('/ingest/logs', async () => ({ ok: true }));
  app.get('/api/projects', async () => ({ projects: [] }));
  await app.ready();
  return app;
}

const ingest = { method: 'POST' as const, url: '/ingest/logs', headers: { origin: 'https://shop.example', 'content-type': 'application/json' }, payload: '{"logs":[]}' };
const read = { method: 'GET' as const, url: '/api/projects', headers: { origin: 'https://shop.example' } };

async function round(app: FastifyInstance, n: number): Promise<number> {
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await app.inject(i % 2 ? read : ingest);
  const c = process.cpuUsage(t0);
  return (c.user + c.system) / n;
}

const apps: Array<[string, FastifyInstance]> = [['this commit', await appOf(createHttpApp)]];
if (process.argv[2])
  apps.unshift(['before', await appOf(((await import(new URL(process.argv[2], `file://${process.cwd()}/`).href)) as { createHttpApp: Make }).createHttpApp)]);
for (const [, app] of apps) await round(app, 2000); // warm-up
const figures = new Map<string, number[]>(apps.map(([name]) => [name, []]));
for (let r = 0; r < 9; r++) for (const [name, app] of apps) figures.get(name)!.push(await round(app, 4000));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of figures) console.log(`${name.padEnd(12)} ${median(xs).toFixed(1)} µs CPU per request (median of ${xs.length} interleaved rounds)`);
if (apps.length === 2) console.log(`ratio ${(median(figures.get('this commit')!) / median(figures.get('before')!)).toFixed(3)}`);
