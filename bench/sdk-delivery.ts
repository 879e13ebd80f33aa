import { pathToFileURL } from 'node:url';
import { newProject } from '../test/support/admin-api.ts';
import { pipeline } from '../test/support/processes.ts';
import { stackUp } from '../test/support/stack.ts';

// `npm run bench:sdk [-- --seconds 10] [--rates 50,150,500] [--sdk path/to/dist/esm/node.js]`
// (the local stack running): how much one Node process sends through the SDK without losing
// anything, to the REAL receiver, on a new project with the default rate limit (5,000 requests a
// minute). Each step makes `rate` app requests a second for `seconds`, each a span with one log
// inside it (2 records), with a fresh client; then close() flushes. A step is sustained when
// nothing was dropped, the loop kept its rate, no request was answered 429 and the queue did not
// grow (at the window's end it held at most a batch or what one flush interval gathers), and requests left at most at the
// limit's pace (83 a second: a 10 s step would otherwise fit in one minute's allowance). `--sdk` runs another build of
// the SDK (e.g. an older commit's) with the same load, for before/after figures
// (docs/benchmarks.md#sdk-delivery).

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const SECONDS = Number(arg('seconds', '10'));
const RATES = arg('rates', '50,150,500,700,1000,2000').split(',').map(Number);
const SDK = arg('sdk', '');

const DEFAULT_LIMIT_PER_MINUTE = 5000;
/** The SDK's default batchSize and flushIntervalMs (docs/sdk.md#client-options): what the queue holds in steady state. */
const BATCH = 500;
const FLUSH_SECONDS = 5;

type Sdk = typeof import('../libs/sdk/src/node.ts');

interface Step {
  rate: number;
  records: number;
  achievedRate: number;
  requests: number;
  requestsPer1000: number;
  status429: number;
  queuedAtEnd: number;
  dropped: number;
  closeMs: number;
  cpuUsPerRecord: number;
  sustained: boolean;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function step(sdk: Sdk, url: string, key: string, rate: number): Promise<Step> {
  const statuses: Record<number, number> = {};
  let requests = 0;
  const counting = (async (input: string | URL | Request, init?: RequestInit) => {
    requests++;
    const res = await fetch(input, init);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    return res;
  }) as typeof fetch;
  const client = sdk.createClient({ apiKey: key, baseUrl: url, service: 'sdk-bench', fetch: counting } as never);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  let made = 0;
  // Catch up every 5 ms to `rate` app requests a second since the start.
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate);
    for (; made < due; made++) client.startSpan('GET /orders/:id', () => client.logger.info('order read', { order: made }));
    await delay(5);
  }
  const elapsed = (performance.now() - t0) / 1000;
  const queuedAtEnd = client.stats().queued;
  const c0 = performance.now();
  await client.close(30_000);
  const closeMs = performance.now() - c0;
  const cpu = process.cpuUsage(cpu0);
  const s = client.stats();
  const records = made * 2;
  const r: Step = {
    rate,
    records,
    achievedRate: Math.round(made / elapsed),
    requests,
    requestsPer1000: Math.round((requests / records) * 1000 * 10) / 10,
    status429: statuses[429] ?? 0,
    queuedAtEnd,
    dropped: s.dropped,
    closeMs: Math.round(closeMs),
    cpuUsPerRecord: Math.round(((cpu.user + cpu.system) / records) * 10) / 10,
    sustained: false,
  };
  // Under the limit's pace too: a short step fits in one minute's allowance however many requests it makes.
  r.sustained =
    r.dropped === 0 &&
    r.status429 === 0 &&
    made >= rate * SECONDS * 0.97 &&
    queuedAtEnd <= Math.max(BATCH, rate * 2 * FLUSH_SECONDS) &&
    requests / elapsed <= DEFAULT_LIMIT_PER_MINUTE / 60;
  return r;
}

/** 1,000 spans made at once, then close(): how many requests carried them. */
async function spansInABurst(sdk: Sdk, url: string, key: string) {
  let requests = 0;
  const counting = ((input: string | URL | Request, init?: RequestInit) => {
    requests++;
    return fetch(input, init);
  }) as typeof fetch;
  const client = sdk.createClient({ apiKey: key, baseUrl: url, service: 'sdk-bench', fetch: counting } as never);
  for (let i = 0; i < 1000; i++) client.startSpan(`op ${i % 10}`, () => {});
  await client.close(60_000);
  return { requests, dropped: client.stats().dropped };
}

async function main() {
  if (!(await stackUp())) throw new Error('the local stack is not running: make services-up');
  const sdk: Sdk = SDK ? await import(pathToFileURL(SDK).href) : await import('../libs/sdk/src/node.ts');
  const p = await pipeline({ LOG_LEVEL: 'error' });
  try {
    const receiver = await p.start('receiver');
    const dashboard = await p.start('dashboard');
    const burst = await spansInABurst(sdk, receiver.url, (await newProject(dashboard, p.operatorToken, 'sdk-bench-burst')).key);
    console.error(JSON.stringify({ burst }));
    const steps: Step[] = [];
    for (const rate of RATES) {
      // A project per step: each starts with its whole minute of the default limit.
      const project = await newProject(dashboard, p.operatorToken, `sdk-bench-${rate}`);
      const s = await step(sdk, receiver.url, project.key, rate);
      steps.push(s);
      console.error(JSON.stringify(s));
      if (s.dropped > 0 && s.dropped > s.records / 2) break; // past the knee: the next step only drops more
    }
    const best = steps.filter((s) => s.sustained).pop();
    console.log(
      JSON.stringify(
        {
          sdk: SDK || '@devtrail/sdk',
          seconds: SECONDS,
          requestsFor1000Spans: burst.requests,
          droppedOf1000Spans: burst.dropped,
          sustainedAppRequestsPerSecond: best?.rate ?? 0,
          sustainedRecordsPerSecond: (best?.rate ?? 0) * 2,
          steps,
        },
        null,
        2,
      ),
    );
  } finally {
    await p.close();
  }
}

await main();
