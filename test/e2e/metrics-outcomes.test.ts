import { randomBytes } from 'node:crypto';
import { createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_KINDS, kindOf, type EventKind } from '@devtrail/kinds';
import { METRICS } from '@devtrail/metrics';
import { ingest, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { scrape, sumOf, type Sample } from '../support/prometheus-text.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// Every event ends in exactly one counted outcome, and the counts add up: known traffic
// (accepted, invalid, unauthorised, wrong origin, rate-limited, oversized, and poison the
// column store refuses for good) moves each outcome counter of the receiver by exactly what was
// answered, and once the consumers have drained, accepted = stored + dead-lettered for every
// kind. Read from every service's /metrics as Prometheus reads it (the text exposition).
const up = await stackUp();
const N = Object.fromEntries(Object.entries(METRICS).map(([k, d]) => [k, d.name])) as Record<keyof typeof METRICS, string>;
const POISON = 'poison-';

describe.skipIf(!up)(`outcome metrics add up${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let consumers: ServiceProcess;
  let dashboard: ServiceProcess;
  const projects: Record<'main' | 'limited' | 'origins', { id: string; key: string }> = {} as never;

  beforeAll(async () => {
    // The body limit lowered so an oversized request stays small; the poison's dead letters are on purpose.
    p = await pipeline({ INGEST_BODY_LIMIT_BYTES: '65536', CONSUMER_BATCH_MS: '200' }, { sendsPoison: true });
    receiver = await p.start('receiver');
    consumers = await p.start('consumers');
    dashboard = await p.start('dashboard');
    for (const [name, limit] of [
      ['main', 100_000],
      ['limited', 2],
      ['origins', 100_000],
    ] as const) {
      const c = JSON.parse((await p.cli(['project', 'create', name, '--json', '--rate-limit', String(limit)], dashboard)).stdout);
      projects[name] = { id: c.project.id, key: c.api_key };
    }
    expect((await p.cli(['origins', 'set', projects.origins.id, 'shop.example'], dashboard)).code).toBe(0);
    // Poison: a constraint the column store enforces, so these logs are accepted and then refused for good.
    const ch = createClient({ url: STACK.clickhouseUrl });
    await ch.command({ query: `ALTER TABLE e2e_${p.ns}.logs ADD CONSTRAINT no_poison CHECK NOT startsWith(message, '${POISON}')` });
    await ch.close();
  }, 180_000);
  afterAll(async () => p?.close());

  it('moves each outcome counter by exactly what was answered, and accepted = stored + dead-lettered', { timeout: 120_000 }, async () => {
    const services = { receiver, consumers, dashboard };
    const before = Object.fromEntries(await Promise.all(Object.entries(services).map(async ([n, s]) => [n, await scrape(s.url)]))) as Record<string, Sample[]>;

    const answers: Array<{ kind: EventKind; path: string; status: number; events: number }> = [];
    const send = async (kind: EventKind, body: unknown, opts: { key?: string; headers?: Record<string, string>; events?: number } = {}) => {
      const path = kindOf(kind).path;
      const r = await ingest(receiver, path, opts.key ?? projects.main.key, body, opts.headers);
      answers.push({ kind, path, status: r.status, events: opts.events ?? 1 });
      return r.status;
    };
    const logs = (...messages: string[]) => ({ logs: messages.map((message) => ({ level: 'info', message })) });
    const tag = randomBytes(3).toString('hex');
    // Accepted, poison among them.
    expect(await send('log', logs(`a-${tag}`, `b-${tag}`, `c-${tag}`), { events: 3 })).toBe(200);
    expect(await send('log', logs(`d-${tag}`, `${POISON}1-${tag}`, `e-${tag}`, `${POISON}2-${tag}`), { events: 4 })).toBe(200);
    expect(await send('error', { error_message: `boom ${tag}`, stack_trace: 'Error: boom\n    at f (/a.js:1:1)' })).toBe(200);
    expect(await send('error', { error_message: `bang ${tag}`, stack_trace: 'Error: bang\n    at g (/b.js:2:2)' })).toBe(200);
    const span = { trace_id: randomBytes(16).toString('hex'), operation: 'GET /', start_time: new Date().toISOString(), duration_ms: 4 };
    expect(await send('span', { ...span, span_id: randomBytes(8).toString('hex') })).toBe(200);
    expect(await send('llm', { model: 'm', provider: 'p', operation: 'chat', input_tokens: 3, output_tokens: 4, latency_ms: 5 })).toBe(200);
    // Refused: invalid (400), unauthorised (401), wrong origin (403), oversized (413), rate-limited (429).
    expect(await send('log', { logs: [{ level: 'fatal', message: 'x' }] })).toBe(400);
    expect(await send('log', { logs: [] })).toBe(400);
    expect(await send('error', { error_message: 'no stack' })).toBe(400);
    expect(await send('span', { ...span, span_id: 'x' }, { key: `dt_${'0'.repeat(24)}` })).toBe(401);
    expect(await send('llm', { model: 'm' }, { key: projects.origins.key, headers: { origin: 'https://evil.example' } })).toBe(403);
    expect(await send('log', logs('x'.repeat(70_000)))).toBe(413);
    for (let i = 0; i < 5; i++) await send('log', logs(`limited-${i}-${tag}`), { key: projects.limited.key });
    const limited = answers.filter((a) => a.path === kindOf('log').path && (a.status === 429 || a.status === 200)).slice(-5);
    expect(limited.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(1); // a minute boundary may let a third one in

    // The receiver: accepted events and refused requests, exactly as answered.
    const after = await scrape(receiver.url);
    const delta = (name: string, match: Record<string, string> = {}, svc = 'receiver', now = after) => sumOf(now, name, match) - sumOf(before[svc], name, match);
    const REASON: Record<number, string> = { 400: 'invalid', 401: 'unauthorized', 403: 'origin', 413: 'too_large', 429: 'rate_limited' };
    for (const kind of EVENT_KINDS) {
      const mine = answers.filter((a) => a.kind === kind);
      expect(delta(N.acceptedEvents, { kind }), `accepted ${kind}`).toBe(mine.filter((a) => a.status === 200).reduce((n, a) => n + a.events, 0));
      for (const [status, reason] of Object.entries(REASON)) {
        expect(delta(N.refusedRequests, { kind, reason }), `refused ${kind} ${reason}`).toBe(mine.filter((a) => a.status === Number(status)).length);
      }
      // One Kafka message per accepted request, and every request timed under its route.
      expect(delta(N.kafkaProducedMessages, { topic: `${p.env.KAFKA_TOPIC_PREFIX}${kindOf(kind).name}` }), `messages ${kind}`).toBe(
        mine.filter((a) => a.status === 200).length,
      );
      expect(delta(`${N.httpRequestDuration}_count`, { route: kindOf(kind).path }), `requests ${kind}`).toBe(mine.length);
    }
    expect(delta(N.refusedRequests, { reason: 'unavailable' }) + delta(N.refusedRequests, { reason: 'internal' })).toBe(0);

    // The consumers: once every lag is 0, each accepted event was stored or dead-lettered, exactly once.
    const accepted = (kind: EventKind) => delta(N.acceptedEvents, { kind });
    const settled = async () => {
      const now = await scrape(consumers.url);
      const lag = now.filter((s) => s.name === N.consumerLag);
      const out: Record<string, unknown> = { lagSeries: lag.length > 0, lag: lag.reduce((n, s) => n + s.value, 0) };
      for (const kind of EVENT_KINDS) {
        const stored = delta(N.storedEvents, { kind }, 'consumers', now);
        const dead = delta(N.deadLetteredEvents, { kind }, 'consumers', now);
        out[kind] = { accepted: accepted(kind), stored_plus_dead: stored + dead };
      }
      return out;
    };
    const balanced = Object.fromEntries(EVENT_KINDS.map((k) => [k, { accepted: accepted(k), stored_plus_dead: accepted(k) }]));
    await expect.poll(settled, { timeout: 30_000, interval: 300 }).toEqual({ lagSeries: true, lag: 0, ...balanced });

    const drained = await scrape(consumers.url);
    const c = (name: string, match: Record<string, string> = {}) => delta(name, match, 'consumers', drained);
    const logsAccepted = accepted('log');
    expect(c(N.deadLetteredEvents, { kind: 'log', reason: 'rejected' })).toBe(2);
    expect(c(N.deadLetteredEvents)).toBe(2);
    expect(c(N.storedEvents, { kind: 'log' })).toBe(logsAccepted - 2);
    // What the sinks stored is what ClickHouse took, row for row; and every message was timed to visibility.
    for (const kind of EVENT_KINDS) {
      expect(c(N.clickhouseInsertRows, { table: kindOf(kind).name }), `rows ${kind}`).toBe(c(N.storedEvents, { kind }));
      expect(c(`${N.ingestToVisible}_count`, { kind }), `visible ${kind}`).toBe(answers.filter((a) => a.kind === kind && a.status === 200).length);
    }
    expect(c(N.clickhouseInsertBytes)).toBeGreaterThan(0);
    expect(drained.filter((s) => s.name === N.stalledSeconds).every((s) => s.value === 0)).toBe(true);
    expect(await p.count('logs', 'startsWith(message, {p:String})', { p: POISON })).toBe(0);

    // The dashboard counts its own requests; every service exports process metrics.
    const d = await scrape(dashboard.url);
    expect(sumOf(d, `${N.httpRequestDuration}_count`, { route: '/health' })).toBeGreaterThan(0);
    for (const samples of [after, drained, d]) expect(samples.some((s) => s.name === 'process_resident_memory_bytes')).toBe(true);

    // The JSON view reads the same counters.
    const json = await (await fetch(`${receiver.url}/metrics`, { headers: { accept: 'application/json' } })).json();
    expect(json.receiver.accepted_events.log).toBe(sumOf(after, N.acceptedEvents, { kind: 'log' }));
    const sinks = (await (await fetch(`${consumers.url}/metrics`, { headers: { accept: 'application/json' } })).json()).consumers as Array<{
      name: string;
      written: number;
      deadLettered: number;
    }>;
    expect(sinks.find((s) => s.name === 'logs-sink')).toMatchObject({ written: sumOf(drained, N.storedEvents, { kind: 'log' }), deadLettered: 2 });
  });
});
