import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../test/support/processes.ts';

// `npm run bench:sdk-overhead [-- --seconds 10] [--rounds 5] [--connections 8]
//   [--traces-sample-rate 1] [--modes none,devtrail,sentry] [--sdk libs/sdk/dist/cjs/node.js]`
// (build the SDK first: npm run build -w @devtrail/sdk): what the SDK costs an app
// (docs/sdk.md#overhead). One app process per mode (bench/sdk-overhead-app.cjs: a
// trivial Express route) with no SDK, with @devtrail/sdk at its defaults, or with @sentry/node
// tracing at the same sample rate, each driven in turn by the same keep-alive load for `seconds`,
// in interleaved rounds (the order rotates each round; a first warm-up round is not counted).
// The figure is the CPU time of the app process (user + system, read from the app itself)
// divided by the requests it answered. Both SDKs deliver to a sink in this process that answers
// 200 to everything (a stand-in for a receiver: the app's CPU is measured, not delivery's).

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const SECONDS = Number(arg('seconds', '10'));
const ROUNDS = Number(arg('rounds', '5'));
const CONNECTIONS = Number(arg('connections', '8'));
const RATE = arg('traces-sample-rate', '1');
const MODES = arg('modes', 'none,devtrail,sentry').split(',');
const SDK = join(ROOT, arg('sdk', 'libs/sdk/dist/cjs/node.js'));

interface App {
  mode: string;
  child: ChildProcess;
  port: number;
}

interface Sample {
  mode: string;
  requests: number;
  cpuUsPerRequest: number;
  perSecond: number;
}

function startSink(): Promise<{ server: Server; url: string; bodies: () => number }> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies: () => count })),
  );
}

function startApp(mode: string, sink: string): Promise<App> {
  const child = spawn(process.execPath, [join(ROOT, 'bench/sdk-overhead-app.cjs')], {
    cwd: ROOT,
    env: { ...process.env, BENCH_MODE: mode, BENCH_SINK: sink, BENCH_SDK: SDK, BENCH_TRACES_SAMPLE_RATE: RATE, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ mode, child, port: (JSON.parse(line) as { port: number }).port });
    });
    child.once('exit', (code) => reject(new Error(`${mode} app exited with ${code}`)));
  });
}

function get(agent: Agent, port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

const cpuOf = async (agent: Agent, app: App) => (JSON.parse(await get(agent, app.port, '/__cpu')) as { us: number }).us;

/** `CONNECTIONS` keep-alive loops against GET /hello for SECONDS; the app's CPU per answered request. */
async function drive(app: App): Promise<Sample> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const cpu0 = await cpuOf(agent, app);
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  let requests = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        await get(agent, app.port, '/hello');
        requests++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = (await cpuOf(agent, app)) - cpu0;
  agent.destroy();
  return { mode: app.mode, requests, cpuUsPerRequest: cpu / requests, perSecond: requests / elapsed };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main(): Promise<void> {
  if (MODES.includes('devtrail') && !existsSync(SDK)) throw new Error(`no SDK build at ${SDK}: npm run build -w @devtrail/sdk`);
  const sink = await startSink();
  const apps: App[] = [];
  try {
    for (const mode of MODES) apps.push(await startApp(mode, sink.url));
    const samples: Sample[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const order = apps.map((_, i) => apps[(i + round) % apps.length]);
      for (const app of order) {
        const s = await drive(app);
        const counted = round > 0;
        if (counted) samples.push(s);
        console.log(
          `round ${round}${counted ? '' : ' (warm-up)'} ${s.mode}: ${s.requests} requests, ${s.cpuUsPerRequest.toFixed(1)} µs CPU/request, ${Math.round(s.perSecond)}/s`,
        );
      }
    }
    const base = median(samples.filter((s) => s.mode === 'none').map((s) => s.cpuUsPerRequest));
    const baseRate = median(samples.filter((s) => s.mode === 'none').map((s) => s.perSecond));
    console.log(`\ntracesSampleRate ${RATE}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s; sink received ${sink.bodies()} requests`);
    console.log('| app | CPU µs per request (median) | per round | added by the SDK | requests/s | throughput vs no SDK |');
    console.log('| --- | ---: | --- | ---: | ---: | ---: |');
    for (const mode of MODES) {
      const mine = samples.filter((s) => s.mode === mode);
      const cpu = median(mine.map((s) => s.cpuUsPerRequest));
      const rate = median(mine.map((s) => s.perSecond));
      const added = Number.isFinite(base) && mode !== 'none' ? `${(cpu - base).toFixed(1)}` : '';
      const ratio = Number.isFinite(baseRate) ? `${(rate / baseRate).toFixed(2)}×` : '';
      console.log(`| ${mode} | ${cpu.toFixed(1)} | ${mine.map((s) => s.cpuUsPerRequest.toFixed(0)).join(' ')} | ${added} | ${Math.round(rate)} | ${ratio} |`);
    }
  } finally {
    for (const app of apps) app.child.kill('SIGTERM');
    sink.server.close();
  }
}

await main();
