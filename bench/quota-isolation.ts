import { Client, runLoop } from './http-load.ts';
import { summarize, type Summary } from './stats.ts';
import { logBatch } from './payloads.ts';
import { pipeline } from '../test/support/processes.ts';
import { adminCall, newProject } from '../test/support/admin-api.ts';
import { stackUp } from '../test/support/stack.ts';
import { CpuMeter } from './cpu-usage.ts';

// `npx tsx bench/quota-isolation.ts [--seconds 10] [--flood-rate 300]` (the local stack
// running): does one project flooding the receiver cost the other projects latency, with and
// without a quota that refuses the flood (docs/data.md#quotas-and-spike-protection)? A quiet
// project sends 50 requests/s of 20 logs throughout; three phases of `seconds` each: quiet
// alone; quiet beside a flooding project (`flood-rate` requests/s of 100 logs, 16 in flight)
// whose quota refuses almost all of it; the same flood with no quota. Prints the quiet
// project's latency and the receiver's CPU per phase, and what the flood got.

const secArg = process.argv.indexOf('--seconds');
const SECONDS = secArg > 0 ? Number(process.argv[secArg + 1]) : 10;
const rateArg = process.argv.indexOf('--flood-rate');
const FLOOD_RATE = rateArg > 0 ? Number(process.argv[rateArg + 1]) : 300;

async function main() {
  if (!(await stackUp())) throw new Error('the local stack is not running: make services-up');
  const p = await pipeline({ LOG_LEVEL: 'error' });
  try {
    const receiver = await p.start('receiver');
    await p.start('consumers');
    const dashboard = await p.start('dashboard');
    const quiet = await newProject(dashboard, p.operatorToken, 'quiet');
    const limited = await newProject(dashboard, p.operatorToken, 'flood-with-quota');
    const open = await newProject(dashboard, p.operatorToken, 'flood-without-quota');
    for (const f of [limited, open]) await adminCall(dashboard, p.operatorToken, 'PUT', `/api/admin/projects/${f.id}/rate-limit`, { rate_limit_per_minute: 10_000_000 });
    await adminCall(dashboard, p.operatorToken, 'PUT', `/api/admin/projects/${limited.id}/quotas`, {
      quotas: { logs: { per_minute: 6000 } },
      spike_guard: { enabled: true, factor: 10, min_per_minute: 6000 },
    });
    const quietBodies = Array.from({ length: 20 }, () => logBatch(20));
    const floodBodies = Array.from({ length: 20 }, () => logBatch(100));

    const quietLoad = async () => {
      const c = new Client(receiver.url, quiet.key, 8);
      const ms: number[] = [];
      const statuses: Record<number, number> = {};
      await runLoop({
        concurrency: 8,
        rate: 50,
        durationMs: SECONDS * 1000,
        send: async (i) => {
          const o = await c.post('/ingest/logs', quietBodies[i % quietBodies.length]);
          ms.push(o.ms);
          statuses[o.status] = (statuses[o.status] ?? 0) + 1;
        },
      });
      c.close();
      return { latency: summarize(ms), statuses };
    };
    const flood = async (key: string) => {
      const c = new Client(receiver.url, key, 16);
      const statuses: Record<number, number> = {};
      await runLoop({
        concurrency: 16,
        rate: FLOOD_RATE,
        durationMs: SECONDS * 1000,
        send: async (i) => {
          const o = await c.post('/ingest/logs', floodBodies[i % floodBodies.length]);
          statuses[o.status] = (statuses[o.status] ?? 0) + 1;
        },
      });
      c.close();
      return statuses;
    };
    const metrics = async () => ((await (await fetch(`${receiver.url}/metrics`)).json()) as any).receiver;

    const cpu = new CpuMeter({ receiver: () => [receiver.child.pid!] });
    const phase = async <T>(run: () => Promise<T>): Promise<T & { cores: number }> => {
      cpu.begin();
      const r = await run();
      return { ...r, cores: cpu.end().receiver };
    };
    await quietLoad(); // warm-up
    const alone = await phase(async () => ({ quiet: await quietLoad() }));
    const before = await metrics();
    const limitedPhase = await phase(async () => {
      const [quiet, f] = await Promise.all([quietLoad(), flood(limited.key)]);
      return { quiet, flood: f };
    });
    const after = await metrics();
    const openPhase = await phase(async () => {
      const [quiet, f] = await Promise.all([quietLoad(), flood(open.key)]);
      return { quiet, flood: f };
    });

    const row = (name: string, q: { latency: Summary; statuses: Record<number, number> }, cores: number, f?: Record<number, number>) =>
      `  ${name.padEnd(36)} p50 ${String(q.latency.p50).padStart(6)} ms  p99 ${String(q.latency.p99).padStart(6)} ms  (n=${q.latency.n}, ${JSON.stringify(q.statuses)})  receiver ${cores.toFixed(2)} cores${f ? `  flood answers ${JSON.stringify(f)}` : ''}`;
    console.log(`quiet project: 50 requests/s of 20 logs; flood: ${FLOOD_RATE} requests/s of 100 logs; ${SECONDS} s a phase`);
    console.log(row('alone', alone.quiet, alone.cores));
    console.log(row('beside a flood refused by its quota', limitedPhase.quiet, limitedPhase.cores, limitedPhase.flood));
    console.log(row('beside the same flood, no quota', openPhase.quiet, openPhase.cores, openPhase.flood));
    const counted = (m: any) => m.rate_limited_events.log.quota_per_minute + m.rate_limited_events.log.spike_guard;
    const requests = (m: any) => m.rate_limited_requests.log.quota_per_minute + m.rate_limited_requests.log.spike_guard;
    console.log(`  flood refusals counted: ${counted(after) - counted(before)} events (after reading the body), ${requests(after) - requests(before)} requests (before)`);
  } finally {
    await p.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
