import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_KINDS, kindOf } from '@devtrail/kinds';
import { METRICS } from '@devtrail/metrics';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded-process.ts';
import { scrape, sumOf } from '../support/prometheus-text.ts';

// The embedded process exports the same metrics from one registry (its receiver's and its
// consumers'): known traffic moves the outcome counters by exactly what was answered, every
// accepted event is stored once the in-process sinks drain, and the JSON view and the
// dashboard's ingestion page read the same counters.
let e: EmbeddedProcess;
beforeAll(async () => {
  e = await startEmbeddedProcess({ INGEST_BODY_LIMIT_BYTES: '65536' });
}, 120_000);
afterAll(async () => e?.close());

const post = async (path: string, body: unknown, key = e.project.key) =>
  (await fetch(`${e.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }))
    .status;

describe('embedded process metrics', () => {
  it('counts each outcome exactly and balances accepted against stored', { timeout: 60_000 }, async () => {
    const before = await scrape(e.url);
    const statuses = [
      await post('/ingest/logs', {
        logs: [
          { level: 'info', message: 'one' },
          { level: 'warn', message: 'two' },
        ],
      }),
      await post('/ingest/errors', { error_message: 'boom', stack_trace: 'Error: boom\n    at f (/a.js:1:1)' }),
      await post('/ingest/llm', { model: 'm', provider: 'p', operation: 'chat', input_tokens: 1, output_tokens: 2, latency_ms: 3 }),
      await post('/ingest/logs', { logs: [{ level: 'nope', message: 'x' }] }),
      await post('/ingest/logs', { logs: [{ level: 'info', message: 'x'.repeat(70_000) }] }),
      await post('/ingest/traces', {}, `dt_${'1'.repeat(24)}`),
    ];
    expect(statuses).toEqual([200, 200, 200, 400, 413, 401]);
    const d = (name: string, match: Record<string, string>, now: Awaited<ReturnType<typeof scrape>>) => sumOf(now, name, match) - sumOf(before, name, match);
    const after = await scrape(e.url);
    expect(d(METRICS.acceptedEvents.name, { kind: 'log' }, after)).toBe(2);
    expect(d(METRICS.acceptedEvents.name, { kind: 'error' }, after)).toBe(1);
    expect(d(METRICS.acceptedEvents.name, { kind: 'llm' }, after)).toBe(1);
    expect(d(METRICS.refusedRequests.name, { kind: 'log', reason: 'invalid' }, after)).toBe(1);
    expect(d(METRICS.refusedRequests.name, { kind: 'log', reason: 'too_large' }, after)).toBe(1);
    expect(d(METRICS.refusedRequests.name, { kind: 'span', reason: 'unauthorized' }, after)).toBe(1);

    const balance = async () => {
      const now = await scrape(e.url);
      return Object.fromEntries(
        EVENT_KINDS.map((kind) => [
          kind,
          d(METRICS.acceptedEvents.name, { kind }, now) - d(METRICS.storedEvents.name, { kind }, now) - d(METRICS.deadLetteredEvents.name, { kind }, now),
        ]),
      );
    };
    await expect.poll(balance, { timeout: 20_000, interval: 200 }).toEqual(Object.fromEntries(EVENT_KINDS.map((kind) => [kind, 0])));
    const drained = await scrape(e.url);
    expect(d(METRICS.storedEvents.name, { kind: 'log' }, drained)).toBe(2);
    expect(d(`${METRICS.ingestToVisible.name}_count`, { kind: 'log' }, drained)).toBe(1);
    expect(d(METRICS.clickhouseInsertRows.name, { table: kindOf('log').name }, drained)).toBe(2);

    // The JSON view and the ingestion page's consumers table: the same counters.
    const json = await (await fetch(`${e.url}/metrics`, { headers: { accept: 'application/json' } })).json();
    expect(json.receiver.accepted_events.log).toBe(sumOf(drained, METRICS.acceptedEvents.name, { kind: 'log' }));
    const page = await (await fetch(`${e.url}/api/projects/${e.project.id}/ingestion`, { headers: { authorization: `Bearer ${e.operatorToken}` } })).json();
    const logsSink = page.consumers.find((c: { name: string }) => c.name === 'logs-sink');
    expect(logsSink.written).toBe(sumOf(drained, METRICS.storedEvents.name, { consumer: 'logs-sink' }));
    expect(logsSink.lag).toBe(0);
  });
});
