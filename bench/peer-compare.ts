import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { ROOT } from '../test/support/processes.ts';
import { STACK } from '../test/support/stack.ts';
import { CpuMeter } from './cpu-usage.ts';
import { Client, runLoop } from './http-load.ts';
import { accepted, body, BODY_KINDS, type BodyKind } from './peer-bodies.ts';
import { writeResults } from './report.ts';
import { median, percentile } from './stats.ts';

// `npx tsx bench/peer-compare.ts [flags]`: devtrail's receiver beside the OpenTelemetry
// Collector on the collector's own job (OTLP/HTTP in, Kafka out, 200 only once Kafka
// acknowledged), on one Kafka broker, interleaved rounds, the same records as OTLP/JSON and
// protobuf logs, traces and metrics, and as native JSON logs. Per run: the server process's CPU time
// (utime+stime) per acknowledged record, records/s, request p99, the broker's CPU, and the
// machine's load. docs/benchmarks.md ("Beside the OpenTelemetry Collector") says how to build
// the collector (the peer folder the coordinator provides, built in $SCRATCH/otelpeer) and
// what the figures were.

const USAGE = `npx tsx bench/peer-compare.ts [flags]   (inside the namespace whose local stack is up: make services-up)
  --rounds N        interleaved rounds (default 3)
  --seconds N       load per run, after a 2 s warm-up (default 15)
  --concurrency N   requests in flight (default 16)
  --batch N         records a request (default 100)
  --bodies a,b      of ${Object.keys(BODY_KINDS).join(', ')} (default all)
  --devtrail DIR    a devtrail checkout whose receiver takes part (repeatable; default this one), e.g. the commit before a change
  --out FILE        JSON results (default bench/results/peer-compare.json)
Environment: SCRATCH (default the system's temporary directory) holds otelpeer/ with the built collector and its Kafka.`;

interface Args {
  rounds: number;
  seconds: number;
  concurrency: number;
  batch: number;
  bodies: BodyKind[];
  checkouts: string[];
  out: string;
}

function parse(argv: string[]): Args {
  const a: Args = {
    rounds: 3,
    seconds: 15,
    concurrency: 16,
    batch: 100,
    bodies: Object.keys(BODY_KINDS) as BodyKind[],
    checkouts: [],
    out: 'bench/results/peer-compare.json',
  };
  for (let i = 0; i < argv.length; i++) {
    const v = () => argv[++i] ?? '';
    switch (argv[i]) {
      case '--rounds':
        a.rounds = Number(v());
        break;
      case '--seconds':
        a.seconds = Number(v());
        break;
      case '--concurrency':
        a.concurrency = Number(v());
        break;
      case '--batch':
        a.batch = Number(v());
        break;
      case '--bodies':
        a.bodies = v().split(',') as BodyKind[];
        if (!a.bodies.every((b) => b in BODY_KINDS)) throw new Error(`--bodies: ${Object.keys(BODY_KINDS).join(', ')}`);
        break;
      case '--devtrail':
        a.checkouts.push(resolve(v()));
        break;
      case '--out':
        a.out = v();
        break;
      default:
        console.log(USAGE);
        process.exit(argv[i] === '--help' ? 0 : 2);
    }
  }
  if (a.checkouts.length === 0) a.checkouts.push(ROOT);
  return a;
}

const log = (m: string) => process.stderr.write(`[peer] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BROKER = '127.0.0.1:39092';
const COLLECTOR = 'http://127.0.0.1:4318';

/** The collector's "sync" pipelines for the three signals: no batch processor, no sending queue, acks=all, OTLP/JSON to Kafka. */
const collectorConfig = (logsTopic: string, tracesTopic: string, metricsTopic: string) => `receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:4318
exporters:
  kafka:
    brokers: [${BROKER}]
    client_id: otelcol-devtrail-peer
    sending_queue:
      enabled: false
    logs:
      topic: ${logsTopic}
      encoding: otlp_json
    traces:
      topic: ${tracesTopic}
      encoding: otlp_json
    metrics:
      topic: ${metricsTopic}
      encoding: otlp_json
    producer:
      required_acks: -1
      allow_auto_topic_creation: false
      max_message_bytes: 16777216
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [kafka]
    traces:
      receivers: [otlp]
      exporters: [kafka]
    metrics:
      receivers: [otlp]
      exporters: [kafka]
`;

async function waitFor(what: string, ok: () => Promise<boolean>, ms = 60_000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(250)) if (await ok().catch(() => false)) return;
  throw new Error(`${what} did not come up`);
}

const answers = (url: string, init?: RequestInit) => fetch(url, { ...init, signal: AbortSignal.timeout(2000) }).then((r) => r.ok);

interface Side {
  label: string;
  url: string;
  pid: () => number;
}

interface Run {
  round: number;
  side: string;
  body: BodyKind;
  records: number;
  recordsPerSec: number;
  cpuUsPerRecord: number;
  kafkaUsPerRecord: number;
  p99Ms: number;
  failed: number;
  machineBusyCores: number;
  loadAverage: [number, number];
}

/** One run: warm-up, then `seconds` of load at `concurrency` in flight, CPU of the server and the broker over the measured window. */
async function run(side: Side, kind: BodyKind, a: Args, key: string, kafkaPid: number, round: number, pool: Buffer[]): Promise<Run> {
  const client = new Client(side.url, key, a.concurrency);
  const { path, contentType } = BODY_KINDS[kind];
  let measuring = false;
  let records = 0;
  let failed = 0;
  const latencies: number[] = [];
  const load = (ms: number) =>
    runLoop({
      concurrency: a.concurrency,
      rate: 0,
      durationMs: ms,
      send: async (seq) => {
        const out = await client.post(path, pool[seq % pool.length], contentType);
        if (!measuring) return;
        const n = accepted(kind, a.batch, out.status, out.bytes);
        if (n > 0) records += n;
        else failed++;
        latencies.push(out.ms);
      },
    });
  await load(2000);
  const cpu = new CpuMeter({ server: () => [side.pid()], kafka: () => [kafkaPid] });
  const load0 = os.loadavg()[0];
  measuring = true;
  cpu.begin();
  const t0 = performance.now();
  const ending = load(a.seconds * 1000);
  await sleep(a.seconds * 1000);
  const cores = cpu.end();
  const secs = (performance.now() - t0) / 1000;
  measuring = false;
  await ending;
  client.close();
  const perRecord = (c: number) => Math.round(((c * secs * 1e6) / Math.max(records, 1)) * 10) / 10;
  return {
    round,
    side: side.label,
    body: kind,
    records,
    recordsPerSec: Math.round(records / secs),
    cpuUsPerRecord: perRecord(cores.server),
    kafkaUsPerRecord: perRecord(cores.kafka),
    p99Ms: Math.round(
      percentile(
        latencies.sort((x, y) => x - y),
        99,
      ) ?? Number.NaN,
    ),
    failed,
    machineBusyCores: cores['machine total'],
    loadAverage: [Math.round(load0 * 100) / 100, Math.round(os.loadavg()[0] * 100) / 100],
  };
}

function spawnService(dir: string, main: string, env: Record<string, string>, logFile: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', main], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (c: Buffer) => {
    out = (out + c.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', () => writeFileSync(logFile, out));
  return child;
}

const stopped = (c: ChildProcess) => new Promise<void>((r) => (c.exitCode !== null ? r() : (c.once('exit', () => r()), c.kill('SIGTERM'))));

async function main() {
  const a = parse(process.argv.slice(2));
  const scratch = process.env.SCRATCH ?? os.tmpdir();
  const peer = join(scratch, 'otelpeer');
  const collectorBin = join(peer, 'otelcol-peer', 'otelcol-peer');
  if (!existsSync(collectorBin) || !existsSync(join(peer, 'kafka.sh'))) throw new Error(`no built collector in ${peer} (docs/benchmarks.md: build it there first)`);
  log(`starting the peer's Kafka broker (${BROKER})`);
  if (spawnSync('./kafka.sh', ['start'], { cwd: peer, stdio: 'ignore', env: { ...process.env, SCRATCH: scratch } }).status !== 0)
    throw new Error('the peer Kafka did not start');
  const kafkaPid = Number(readFileSync(join(peer, 'kafka', 'kafka.pid'), 'utf8').trim());
  const prefix = `peer${randomUUID().slice(0, 6)}.`;
  const admin = new Kafka({ clientId: 'peer-compare', brokers: [BROKER], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  const env = {
    KAFKA_BROKERS: BROKER,
    KAFKA_PARTITIONS: '6',
    KAFKA_TOPIC_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    DEVTRAIL_OPERATOR_TOKEN: `peer-compare-${randomUUID()}`,
    DATABASE_URL: STACK.postgresUrl,
    CLICKHOUSE_URL: STACK.clickhouseUrl,
  };
  const procs: ChildProcess[] = [];
  const cleanup = async () => {
    await Promise.all(procs.map(stopped));
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix) || t.startsWith('peer-collector-'));
    if (topics.length) await admin.deleteTopics({ topics }).catch(() => {});
    await admin.disconnect();
    spawnSync('./kafka.sh', ['stop'], { cwd: peer, stdio: 'ignore', env: { ...process.env, SCRATCH: scratch } });
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    // One dashboard for the key; one receiver per checkout (the dashboard first: both migrate).
    const dash = spawnService(a.checkouts[0], 'services/dashboard/src/main.ts', { ...env, DASHBOARD_PORT: '23001' }, join(scratch, 'peer-dashboard.log'));
    procs.push(dash);
    await waitFor('the dashboard', () => answers('http://127.0.0.1:23001/health'));
    const sides: Side[] = [];
    for (const [i, dir] of a.checkouts.entries()) {
      const port = 23000 + i * 10;
      const r = spawnService(dir, 'services/receiver/src/main.ts', { ...env, PORT: String(port) }, join(scratch, `peer-receiver-${i}.log`));
      procs.push(r);
      await waitFor(`the receiver of ${dir}`, () => answers(`http://127.0.0.1:${port}/health/ready`));
      const commit = spawnSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD']).stdout.toString().trim();
      const dirty = spawnSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no']).stdout.toString().trim() ? '+' : '';
      sides.push({ label: `devtrail ${commit}${dirty}`, url: `http://127.0.0.1:${port}`, pid: () => r.pid! });
    }
    const created = await fetch('http://127.0.0.1:23001/api/admin/projects', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.DEVTRAIL_OPERATOR_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'peer-compare', rate_limit_per_minute: 10_000_000 }),
    }).then((r) => r.json() as Promise<{ api_key: string }>);
    const key = created.api_key;
    const pools = Object.fromEntries(a.bodies.map((k) => [k, Array.from({ length: 64 }, () => body(k, a.batch))])) as Record<BodyKind, Buffer[]>;

    const configFile = join(scratch, 'devtrail-peer-collector.yaml');
    let collector: ChildProcess | undefined;
    const collectorSide: Side = { label: 'collector', url: COLLECTOR, pid: () => collector!.pid! };
    const startCollector = async (run: number) => {
      const topics = ['logs', 'traces', 'metrics'].map((s) => `peer-collector-${run}-${s}`);
      await admin.createTopics({
        waitForLeaders: true,
        topics: topics.map((topic) => ({ topic, numPartitions: 6, configEntries: [{ name: 'max.message.bytes', value: '16777216' }] })),
      });
      writeFileSync(configFile, collectorConfig(topics[0], topics[1], topics[2]));
      collector = spawn(collectorBin, ['--config', configFile], { stdio: 'ignore' });
      await waitFor('the collector', () => answers(`${COLLECTOR}/v1/logs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    };

    log(`warming up ${sides.length} receiver(s)`);
    for (const side of sides) for (const k of a.bodies) await run(side, k, { ...a, seconds: 2, concurrency: 4 }, key, kafkaPid, 0, pools[k]);

    const runs: Run[] = [];
    let collectorRuns = 0;
    for (let round = 1; round <= a.rounds; round++) {
      for (const kind of a.bodies) {
        const order = kind === 'native-logs' ? [...sides] : [collectorSide, ...sides];
        if (round % 2 === 0) order.reverse();
        for (const side of order) {
          if (side === collectorSide) await startCollector(++collectorRuns);
          const r = await run(side, kind, a, key, kafkaPid, round, pools[kind]);
          if (side === collectorSide) await stopped(collector!);
          runs.push(r);
          log(
            `round ${round} ${kind.padEnd(20)} ${side.label.padEnd(16)} ${r.cpuUsPerRecord} µs/record, ${r.recordsPerSec} records/s, p99 ${r.p99Ms} ms, failed ${r.failed}, load ${r.loadAverage.join('→')}`,
          );
        }
      }
    }

    // Medians per side and body; each devtrail figure against the collector's on the same bodies
    // (native logs against the collector's OTLP/JSON logs: the same records, its own job).
    console.log(
      `\nbeside the OpenTelemetry Collector: ${a.rounds} rounds, ${a.seconds} s each, ${a.concurrency} in flight, ${a.batch} records a request (${os.cpus().length} CPUs)\n`,
    );
    console.log(
      `  ${'bodies'.padEnd(22)}${'side'.padEnd(18)}${'CPU µs/record'.padStart(14)}${'vs collector'.padStart(14)}${'records/s'.padStart(11)}${'p99 ms'.padStart(8)}${'kafka µs'.padStart(10)}  load`,
    );
    const summary = [];
    for (const kind of a.bodies)
      for (const label of [collectorSide.label, ...sides.map((s) => s.label)]) {
        const mine = runs.filter((r) => r.body === kind && r.side === label);
        if (mine.length === 0) continue;
        const ref = runs.filter((r) => r.body === (kind === 'native-logs' ? 'otlp-logs-json' : kind) && r.side === collectorSide.label);
        const cpu = median(mine.map((r) => r.cpuUsPerRecord));
        const ratio = ref.length ? cpu / median(ref.map((r) => r.cpuUsPerRecord)) : Number.NaN;
        const loads = mine.flatMap((r) => r.loadAverage);
        const row = {
          body: kind,
          side: label,
          cpuUsPerRecord: cpu,
          vsCollector: Math.round(ratio * 100) / 100,
          recordsPerSec: median(mine.map((r) => r.recordsPerSec)),
          p99Ms: median(mine.map((r) => r.p99Ms)),
          kafkaUsPerRecord: median(mine.map((r) => r.kafkaUsPerRecord)),
          failed: mine.reduce((n, r) => n + r.failed, 0),
          runs: mine.map((r) => r.cpuUsPerRecord),
          loadAverage: [Math.min(...loads), Math.max(...loads)],
        };
        summary.push(row);
        console.log(
          `  ${kind.padEnd(22)}${label.padEnd(18)}${`${cpu} (${row.runs.join(' ')})`.padStart(14)}${(Number.isNaN(ratio) ? '' : `${row.vsCollector}x`).padStart(14)}${String(row.recordsPerSec).padStart(11)}${String(row.p99Ms).padStart(8)}${String(row.kafkaUsPerRecord).padStart(10)}  ${row.loadAverage.join('-')}${row.failed ? `  FAILED ${row.failed}` : ''}`,
        );
      }
    const path = writeResults(a.out, { summary, runs }, { started: new Date().toISOString(), machine: { cpus: os.cpus().length, node: process.version } });
    console.log(`\n  written to ${path}`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    log(`error: ${(err as Error).stack ?? err}`);
    process.exit(1);
  },
);
