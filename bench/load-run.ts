import { randomBytes } from 'node:crypto';
import { KINDS } from '@devtrail/kinds';
import type { BenchArgs } from './args.ts';
import { Client, runLoop, type Outcome } from './http-load.ts';
import { BodyPool, errorReport, llmCall, logBatch, newProbeId, newSpanId, span, uuidv7 } from './payloads.ts';
import { bodyDigest, IDEMPOTENCY_HEADER, idempotentEventIds } from '../services/receiver/src/idempotency.ts';
import { STACK } from '../test/support/stack.ts';
import { visibilityBreakdown, type Breakdown, type SentProbe } from './visibility-breakdown.ts';
import { OTLP_LOGS, otlpLogBatch } from './otlp-payloads.ts';
import { MemorySampler } from './proc-memory.ts';
import { MetricsSampler } from './consumer-metrics.ts';
import { CpuMeter } from './cpu-usage.ts';
import { summarize, type Summary } from './stats.ts';
import { startDistributed, startEmbedded, type Target } from './targets.ts';
import { PROBE_KINDS, VisibilityTracker, type ProbeKind } from './visibility.ts';

// The main benchmark: log batches at full speed (or a target rate) plus errors, traces
// and LLM calls at a low rate, against a pipeline this run starts and removes.

export interface LoadResult {
  mode: string;
  config: Record<string, unknown>;
  durationS: number;
  logs: { requests: number; ok: number; statuses: Record<string, number>; eventsPerSec: number; requestsPerSec: number; latencyMs: Summary };
  kinds: Record<Exclude<ProbeKind, 'log'>, { requests: number; ok: number; statuses: Record<string, number>; latencyMs: Summary }>;
  visibleMs: Record<ProbeKind, Summary & { missing: number }>;
  /** Distributed, native logs: where the log probes' POST-to-visible went (visibility-breakdown.ts). */
  visibleBreakdown?: Breakdown;
  visibilityPolls: { polls: number; errors: number; lastError: string | null; pollMs: Summary };
  receiverMemoryMb: { startMb: number; peakMb: number; endMb: number; hwmMb: number };
  /** Average cores used during the load, per process. */
  cpuCores: Record<string, number>;
  consumers: Array<{
    label: string;
    rowsPerSecDuringLoad: number;
    peakRowsPerSec: number;
    rowsDuringLoad: number;
    catchUpAfterLoadS: number | null;
    bySink: Record<string, number>;
  }>;
}

const KIND_PATH: Record<Exclude<ProbeKind, 'log'>, string> = { error: KINDS.error.path, span: KINDS.span.path, llm: KINDS.llm.path };

export async function runLoad(args: BenchArgs, log: (m: string) => void): Promise<LoadResult> {
  const runTag = randomBytes(4).toString('hex');
  const opts = { env: args.env, consumers: args.consumers, cpuProf: args.cpuProf, runTag, log };
  const target: Target = args.mode === 'embedded' ? await startEmbedded(opts) : await startDistributed(opts);
  const stopOnSignal = () => {
    log('interrupted: stopping the services');
    void target.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    return await measure(args, target, runTag, log);
  } catch (err) {
    log(`failed; last output of the services:\n${target.output()}`);
    throw err;
  } finally {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    log('stopping the services and removing their data');
    await target.close();
  }
}

async function measure(args: BenchArgs, target: Target, runTag: string, log: (m: string) => void): Promise<LoadResult> {
  const client = new Client(target.receiverUrl, target.apiKey, args.concurrency + 8);
  // The log batches: native JSON to /ingest/logs, or the same lines as OTLP/HTTP protobuf.
  const sender =
    args.protocol === 'otlp'
      ? { path: OTLP_LOGS.path, type: OTLP_LOGS.contentType, build: otlpLogBatch }
      : { path: '/ingest/logs', type: 'application/json', build: logBatch };
  const pool = new BodyPool<string | Buffer>(args.batch, 48, sender.build);
  const tracker = new VisibilityTracker(target.lookup, 200);

  // Warm-up (not counted): JIT, connections, key cache, topic metadata.
  log('warm-up 3 s');
  await runLoop({
    concurrency: Math.min(args.concurrency, 8),
    rate: 0,
    durationMs: 3000,
    send: async () => void (await client.post(sender.path, pool.take(), sender.type)),
  });
  for (const k of Object.keys(KIND_PATH) as Array<keyof typeof KIND_PATH>)
    await client.post(KIND_PATH[k], k === 'error' ? errorReport('warm-up') : k === 'span' ? span(newSpanId()) : llmCall('warm-up'));

  const mem = new MemorySampler(target.receiverPid, 250);
  const samplers = target.consumers.map((c) => new MetricsSampler(c.label, c.url, 1000));
  await Promise.all(samplers.map((s) => s.sample()));
  tracker.start();

  const logOutcomes: Outcome[] = [];
  const kindOutcomes: Record<keyof typeof KIND_PATH, Outcome[]> = { error: [], span: [], llm: [] };
  let probeSeq = 0;
  // Log probes go with an Idempotency-Key (a UUIDv7, as the SDK sends): their message's key is then known.
  const sent = new Map<string, SentProbe>();
  const breakdown = target.mode === 'distributed' && target.topicPrefix !== undefined && args.protocol === 'native';

  log(
    `load: ${args.seconds} s, ${args.concurrency} in flight, ${args.batch} logs a request (${args.protocol === 'otlp' ? 'OTLP/HTTP protobuf to /v1/logs' : 'JSON to /ingest/logs'}), ${args.rate ? `${args.rate} req/s` : 'unthrottled'}; errors/traces/llm at ${args.kindRate} req/s each`,
  );
  const cpu = new CpuMeter(target.processes);
  cpu.begin();
  const loadStart = performance.now();
  const logLoop = runLoop({
    concurrency: args.concurrency,
    rate: args.rate,
    durationMs: args.seconds * 1000,
    send: async (seq) => {
      const probe = seq % args.sampleEvery === 0 ? newProbeId(runTag, probeSeq++) : undefined;
      if (probe && breakdown) {
        const body = sender.build(args.batch, probe) as string;
        const key = uuidv7();
        sent.set(probe, { marker: probe, firstId: idempotentEventIds(target.projectId, key, bodyDigest(body), 'log', 1)[0], sentWall: Date.now() });
        const o = await client.post(sender.path, body, sender.type, { [IDEMPOTENCY_HEADER]: key });
        logOutcomes.push(o);
        if (o.status === 200) tracker.add('log', probe, o.at);
        return;
      }
      const o = await client.post(sender.path, probe ? sender.build(args.batch, probe) : pool.take(), sender.type);
      logOutcomes.push(o);
      if (probe && o.status === 200) tracker.add('log', probe, o.at);
    },
  });
  const kindLoops = (Object.keys(KIND_PATH) as Array<keyof typeof KIND_PATH>).map((kind) =>
    args.kindRate > 0
      ? runLoop({
          concurrency: 2,
          rate: args.kindRate,
          durationMs: args.seconds * 1000,
          send: async () => {
            const seq = probeSeq++;
            const marker = kind === 'span' ? newSpanId() : kind === 'llm' ? `bench-llm-${runTag}-${seq}` : newProbeId(runTag, seq);
            const body = kind === 'error' ? errorReport(marker) : kind === 'span' ? span(marker) : llmCall(marker);
            const o = await client.post(KIND_PATH[kind], body);
            kindOutcomes[kind].push(o);
            if (o.status === 200) tracker.add(kind, marker, o.at);
          },
        })
      : Promise.resolve({ sent: 0, elapsedMs: 0 }),
  );
  const progress = setInterval(() => {
    const el = (performance.now() - loadStart) / 1000;
    const ok = logOutcomes.filter((o) => o.status === 200).length;
    log(`  ${el.toFixed(0)} s: ${Math.round((ok * args.batch) / el)} logs/s acknowledged, ${tracker.pendingCount} probes pending`);
  }, 5000);
  const { elapsedMs } = await logLoop;
  await Promise.all(kindLoops);
  clearInterval(progress);
  const loadEnd = performance.now();
  const cpuCores = cpu.end();
  const memory = mem.stop();

  log(`load done; waiting for the last probes (${tracker.pendingCount} pending) and for the consumers to catch up`);
  const [, caughtUp] = await Promise.all([tracker.drain(60_000), waitCaughtUp(samplers, 60_000)]);
  await tracker.stop();
  const visibleBreakdown = breakdown
    ? await visibilityBreakdown({
        brokers: STACK.kafkaBrokers,
        topic: `${target.topicPrefix}${KINDS.log.name}`,
        consumerUrls: target.consumers.map((c) => c.url),
        sink: `${KINDS.log.name}-sink`,
        sent,
        seen: tracker.seen,
      }).catch((err) => {
        log(`no visibility breakdown: ${(err as Error).message}`);
        return undefined;
      })
    : undefined;
  samplers.forEach((s) => s.stop());
  pool.close();
  client.close();

  const tally = (os: Outcome[]) => {
    const statuses: Record<string, number> = {};
    for (const o of os) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    return { requests: os.length, ok: statuses['200'] ?? 0, statuses, latencyMs: summarize(os.map((o) => o.ms)) };
  };
  const logs = tally(logOutcomes);
  const secs = elapsedMs / 1000;
  const missingByKind = tracker.pendingByKind();
  return {
    mode: target.mode,
    config: {
      protocol: args.protocol,
      seconds: args.seconds,
      concurrency: args.concurrency,
      batch: args.batch,
      rate: args.rate || 'unthrottled',
      kindRate: args.kindRate,
      sampleEvery: args.sampleEvery,
      consumers: args.consumers,
      env: args.env,
    },
    durationS: Math.round(secs * 10) / 10,
    logs: { ...logs, eventsPerSec: Math.round((logs.ok * args.batch) / secs), requestsPerSec: Math.round((logs.ok / secs) * 10) / 10 },
    kinds: { error: tally(kindOutcomes.error), span: tally(kindOutcomes.span), llm: tally(kindOutcomes.llm) },
    visibleMs: Object.fromEntries(PROBE_KINDS.map((k) => [k, { ...summarize(tracker.latencies[k]), missing: missingByKind[k] }])) as LoadResult['visibleMs'],
    visibleBreakdown,
    visibilityPolls: { polls: tracker.polls, errors: tracker.pollErrors, lastError: tracker.lastPollError, pollMs: summarize(tracker.pollMs) },
    receiverMemoryMb: memory,
    cpuCores,
    consumers: samplers.map((s) => {
      const r = s.rate(loadStart, loadEnd);
      const last = s.samples[s.samples.length - 1];
      const bySink: Record<string, number> = {};
      for (const x of last?.sinks ?? []) bySink[x.name] = Math.round(s.rate(loadStart, loadEnd, x.name).perSec);
      const done = caughtUp.get(s.label);
      return {
        label: s.label,
        rowsPerSecDuringLoad: Math.round(r.perSec),
        peakRowsPerSec: Math.round(r.peakPerSec),
        rowsDuringLoad: r.rows,
        catchUpAfterLoadS: done === undefined ? null : Math.round(((done - loadEnd) / 1000) * 10) / 10,
        bySink,
      };
    }),
  };
}

/** Polls /metrics until every sink of every process reports lag 0; returns when each got there. */
async function waitCaughtUp(samplers: MetricsSampler[], timeoutMs: number): Promise<Map<string, number>> {
  const done = new Map<string, number>();
  const deadline = performance.now() + timeoutMs;
  while (done.size < samplers.length && performance.now() < deadline) {
    for (const s of samplers) {
      if (done.has(s.label)) continue;
      const m = await s.sample();
      if (m?.sinks.every((x) => x.lag === 0)) done.set(s.label, m.at);
    }
    if (done.size < samplers.length) await new Promise((r) => setTimeout(r, 250));
  }
  return done;
}
