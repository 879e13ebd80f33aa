import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../test/support/root.ts';
import { stackPids } from './cpu-usage.ts';
import { foreignProcesses, loadAverage, quiet } from './quiet.ts';
import { median } from './stats.ts';

// `npm run bench:sitting -- [flags]`: the performance comparisons in one sitting on a quiet
// machine (docs/benchmarks.md, "A sitting"). Each run waits until the load average has stayed
// under 1.0 for 30 s and starts only when no other process of this project runs; a run during
// which one appeared is discarded and run again. Checkouts (--checkout, the commit before a change
// and this one, say) are interleaved round by round. At the end one dated record, with the commit,
// the load before and after each run, the medians and each checkout's ratio to the first, is
// appended to docs/benchmarks.md.

const USAGE = `npm run bench:sitting -- [flags]   (the local stack up: make services-up)
  --checkout DIR   a devtrail checkout with node_modules (repeatable, the first is the reference; default this one)
  --rounds N       interleaved rounds of each benchmark (default 3)
  --only a,b       of visibility, embedded, consumer, peer (default all; peer needs the collector built: docs/benchmarks.md)
  --no-record      print the record, do not append it to docs/benchmarks.md`;

const BENCHES = {
  /** The distributed pipeline under load: events/s and POST-to-visible (bench/run.ts). */
  visibility: ['bench/run.ts', '--seconds', '20'],
  /** The one-process mode: events/s and peak memory. */
  embedded: ['bench/run.ts', '--mode', 'embedded', '--seconds', '20'],
  /** One consumers process draining a prefilled topic. */
  consumer: ['bench/run.ts', '--consumer-only', '--prefill', '200000'],
} as const;
type Bench = keyof typeof BENCHES | 'peer';

interface Args {
  checkouts: string[];
  rounds: number;
  only: Bench[];
  record: boolean;
}

function parse(argv: string[]): Args {
  const a: Args = { checkouts: [], rounds: 3, only: ['visibility', 'embedded', 'consumer', 'peer'], record: true };
  for (let i = 0; i < argv.length; i++) {
    const v = () => argv[++i] ?? '';
    if (argv[i] === '--checkout') a.checkouts.push(resolve(v()));
    else if (argv[i] === '--rounds') a.rounds = Math.max(1, Number(v()));
    else if (argv[i] === '--only') a.only = v().split(',') as Bench[];
    else if (argv[i] === '--no-record') a.record = false;
    else throw new Error(`unknown flag ${argv[i]}\n${USAGE}`);
  }
  if (a.checkouts.length === 0) a.checkouts.push(ROOT.replace(/\/$/, ''));
  return a;
}

const log = (m: string) => process.stderr.write(`[sitting] ${m}\n`);
const commitOf = (dir: string) => execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD']).toString().trim();

/** The figures a sitting keeps of each benchmark's JSON result. */
function figures(bench: Bench, r: any): Record<string, number> {
  if (bench === 'consumer') return { 'log rows/s': r.consumer.rowsPerSec, 'peak RSS MB': r.consumer.peakRssMb };
  const out: Record<string, number> = { 'events/s': r.logs.eventsPerSec, 'log visible p50 ms': r.visibleMs.log.p50, 'log visible p99 ms': r.visibleMs.log.p99 };
  for (const [proc, cores] of Object.entries(r.cpuCores as Record<string, number>)) out[`${proc} cores`] = cores;
  if (bench === 'embedded') out['peak RSS MB'] = r.receiverMemoryMb.peakMb;
  return out;
}

interface Run {
  bench: Bench;
  checkout: string;
  round: number;
  loadBefore: number;
  loadAfter: number;
  figures: Record<string, number>;
}

/** One benchmark run as a child process; null when another project process appeared meanwhile. */
async function runOnce(cmd: string[], cwd: string, allowed: Set<number>): Promise<{ ok: boolean; intruders: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...cmd], { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  const intruders = new Set<string>();
  const watch = setInterval(() => {
    for (const p of foreignProcesses(allowed)) intruders.add(p);
  }, 2000);
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  clearInterval(watch);
  if (code !== 0) throw new Error(`${cmd.join(' ')} in ${cwd} exited ${code}`);
  return { ok: intruders.size === 0, intruders: [...intruders] };
}

async function main() {
  const a = parse(process.argv.slice(2));
  const allowed = new Set(Object.values(stackPids()).flatMap((f) => f()));
  const started = new Date();
  const runs: Run[] = [];
  const out = join(tmpdir(), `dt-sitting-${process.pid}`);
  mkdirSync(out, { recursive: true });

  const measure = async (bench: Bench, checkout: string, round: number, cmd: string[], file: string) => {
    for (let attempt = 1; ; attempt++) {
      await quiet({ below: 1.0, forMs: 30_000, giveUpMs: 30 * 60_000 }, log);
      const foreign = foreignProcesses(allowed);
      if (foreign.length > 0) throw new Error(`another process of this project is running; a sitting needs the machine to itself:\n${foreign.join('\n')}`);
      const loadBefore = loadAverage();
      log(`${bench} round ${round} in ${checkout} (load ${loadBefore})`);
      const r = await runOnce(cmd, checkout, allowed);
      if (!r.ok) {
        if (attempt >= 3) throw new Error(`${bench}: other processes of this project ran during three runs: ${r.intruders.join('; ')}`);
        log(`discarded: ${r.intruders.join('; ')} ran meanwhile`);
        continue;
      }
      return { loadBefore, loadAfter: loadAverage(), result: JSON.parse(readFileSync(file, 'utf8')).result };
    }
  };

  for (const bench of a.only.filter((b): b is keyof typeof BENCHES => b !== 'peer'))
    for (let round = 1; round <= a.rounds; round++) {
      // Interleaved, and each round in the other order, so a drift of the machine favours no checkout.
      const order = round % 2 ? a.checkouts : [...a.checkouts].reverse();
      for (const checkout of order) {
        const file = join(out, `${bench}-${round}-${a.checkouts.indexOf(checkout)}.json`);
        const m = await measure(bench, checkout, round, [...BENCHES[bench], '--out', file], file);
        runs.push({ bench, checkout, round, loadBefore: m.loadBefore, loadAfter: m.loadAfter, figures: figures(bench, m.result) });
      }
    }

  let peer = '';
  if (a.only.includes('peer')) {
    const collector = join(process.env.SCRATCH ?? tmpdir(), 'otelpeer/otelcol-peer/otelcol-peer');
    if (!existsSync(collector)) peer = `Beside the OpenTelemetry Collector: not run (no collector at ${collector}; docs/benchmarks.md says how to build it).`;
    else {
      const file = join(out, 'peer.json');
      const cmd = ['bench/peer-compare.ts', '--rounds', String(a.rounds), '--seconds', '8', '--out', file, ...a.checkouts.flatMap((c) => ['--devtrail', c])];
      const m = await measure('peer', a.checkouts[0], 1, cmd, file);
      peer = [
        `Beside the OpenTelemetry Collector (${a.rounds} interleaved rounds of 8 s, server CPU µs per acknowledged record, medians; load ${m.loadBefore} before, ${m.loadAfter} after):`,
        '',
        '| bodies | side | CPU µs/record | vs collector |',
        '|---|---|---:|---:|',
        ...m.result.summary.map((s: any) => `| ${s.body} | ${s.side} | ${s.cpuUsPerRecord} | ${Number.isNaN(s.vsCollector) ? '' : `${s.vsCollector}×`} |`),
      ].join('\n');
    }
  }

  const commits = a.checkouts.map(commitOf);
  const lines = [`### Sitting of ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${commits.join(' against ')}`, ''];
  for (const bench of new Set(runs.map((r) => r.bench))) {
    const mine = runs.filter((r) => r.bench === bench);
    const names = Object.keys(mine[0].figures);
    lines.push(`${bench} (${a.rounds} rounds; load before each run ${mine.map((r) => r.loadBefore).join(', ')}):`, '');
    lines.push(
      `| figure | ${commits.map((c, i) => (i === 0 ? c : `${c} | ratio`)).join(' | ')} |`,
      `|---|${commits.map((_, i) => (i === 0 ? '---:' : '---:|---:')).join('|')}|`,
    );
    for (const name of names) {
      const med = a.checkouts.map((c) => median(mine.filter((r) => r.checkout === c).map((r) => r.figures[name])));
      lines.push(`| ${name} | ${med.map((m, i) => (i === 0 ? `${m}` : `${m} | ${(m / med[0]).toFixed(2)}×`)).join(' | ')} |`);
    }
    lines.push('');
  }
  if (peer) lines.push(peer, '');
  const record = lines.join('\n');
  console.log(`\n${record}`);
  if (a.record) {
    appendFileSync(join(ROOT, 'docs/benchmarks.md'), `\n${record}`);
    log('appended to docs/benchmarks.md');
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    log(`error: ${(err as Error).message}`);
    process.exit(1);
  },
);
