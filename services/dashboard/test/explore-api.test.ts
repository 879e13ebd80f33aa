import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, loadConfig } from '@devtrail/config';
import { createHttpApp } from '@devtrail/http';
import { KINDS } from '@devtrail/kinds';
import { embeddedAdapters } from '../../../test/support/embedded-adapters.ts';
import { registerControlPlane, registerDashboardUi } from '../src/index.ts';
import { csvField } from '../src/api/log-export.ts';

// The explorer's read API through its front door (inject), over the embedded adapters
// (chdb, PGlite): logs search, histogram, facets and surrounding lines; trace search; LLM
// calls, breakdown by metadata and latency; saved searches; and which 404 a path gets.

const OPERATOR = 'dto_operator_token_for_explore_0123456789';
let app: FastifyInstance;
let close: () => Promise<void>;
let project: string;
// Recent, whole minutes: rows older than the retention (30 days) would be dropped.
const T0 = Math.floor(Date.now() / 3600_000) * 3600_000 - 2 * 3600_000;
const at = (ms: number) => new Date(T0 + ms).toISOString();
const RANGE = `from=${T0 - 3600_000}&to=${T0 + 3600_000}`;

function call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${OPERATOR}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
const get = async (path: string) => {
  const res = await call('GET', `/api/projects/${project}${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  const adapters = await embeddedAdapters();
  const logger = createLogger('silent', 'explore-test');
  app = await createHttpApp(logger, 1024 * 1024);
  const ui = await registerDashboardUi(app, adapters, logger, {
    operatorToken: OPERATOR,
    security: loadConfig({}).dashboard,
    dataDir: mkdtempSync(join(tmpdir(), 'dt-explore-')),
    defaultRetentionDays: 30,
  });
  await registerControlPlane(app, adapters, logger, {
    operatorToken: OPERATOR,
    defaultRateLimitPerMinute: 5000,
    defaultRetentionDays: 30,
    deletionGraceMs: 1000,
    authenticators: [ui.authenticator],
  });
  await app.ready();
  close = async () => {
    await app.close();
    await adapters.close();
  };
  project = (await call('POST', '/api/admin/projects', { name: 'explore' })).json().project.id;
  const store = adapters.columnStore;
  const stored = (data: object) => ({ project_id: project, event_id: randomUUID(), received_at: at(0), data: data as never });
  const common = { environment: 'production', release: 'v2' };
  const logs = [
    { service: 'checkout', level: 'info', message: 'order placed', metadata: { user_id: 'u_1042', cart: 3 } },
    { service: 'checkout', level: 'warn', message: 'payment slow', metadata: { user_id: 'u_7', ms: 812 } },
    { service: 'checkout', level: 'error', message: 'payment declined: card expired', metadata: { user_id: 'u_1042' }, trace_id: 'trace-1' },
    { service: 'cart', level: 'debug', message: 'cache miss', metadata: { key: 'p:1' } },
    { service: 'cart', level: 'info', message: 'cart saved', metadata: {} },
  ].map((l, i) => ({ ...common, span_id: '', request_id: '', context: '', trace_id: '', ...l, timestamp: at(i * 60_000) }));
  await store.insert(
    KINDS.log.name,
    logs.map((l) => KINDS.log.toRow(stored(l), 30)),
  );
  const span = (s: Record<string, unknown>) => ({ ...common, service: 'checkout', parent_span_id: '', status: 'ok', metadata: {}, start_time: at(0), ...s });
  const spans = [
    span({ trace_id: 'trace-1', span_id: 'a', operation: 'POST /api/checkout', duration_ms: 420 }),
    span({ trace_id: 'trace-1', span_id: 'b', parent_span_id: 'a', operation: 'charge', duration_ms: 300, status: 'error', service: 'payments' }),
    span({ trace_id: 'trace-2', span_id: 'c', operation: 'GET /api/cart', duration_ms: 12, service: 'cart', start_time: at(60_000) }),
  ];
  await store.insert(
    KINDS.span.name,
    spans.map((s) => KINDS.span.toRow(stored(s), 30)),
  );
  const call1 = { ...common, service: 'assistant', model: 'gpt-4o', provider: 'openai', operation: 'chat', input_tokens: 100, output_tokens: 50, cost_usd: 0.01 };
  const calls = [
    { ...call1, latency_ms: 900, metadata: { feature: 'search', trace_id: 'trace-1' }, timestamp: at(0) },
    { ...call1, latency_ms: 1500, metadata: { feature: 'search' }, timestamp: at(60_000) },
    { ...call1, latency_ms: 300, metadata: { feature: 'summary' }, timestamp: at(120_000) },
    { ...call1, latency_ms: 100, metadata: {}, timestamp: at(180_000) },
  ];
  await store.insert(
    KINDS.llm.name,
    calls.map((c) => KINDS.llm.toRow(stored(c), 30)),
  );
  const error = (e: Record<string, unknown>) => ({
    ...common,
    service: 'payments',
    timestamp: at(1000),
    fingerprint: 'f'.repeat(64),
    error_type: 'CardError',
    error_message: 'card expired',
    stack_trace: '',
    severity: 'high',
    context: {},
    user_id: '',
    breadcrumbs: [],
    ...e,
  });
  await store.insert(
    KINDS.error.name,
    [error({ trace_id: 'trace-1' }), error({ trace_id: 'trace-9' })].map((e) => KINDS.error.toRow(stored(e), 30)),
  );
});
afterAll(async () => close());

describe('logs export', () => {
  const exported = async (query: string) => {
    const res = await call('GET', `/api/projects/${project}/logs/export?${RANGE}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('streams the matching logs as CSV: a header, a line per log, quoted as RFC 4180, formulas defused', async () => {
    const res = await exported('q=service:checkout');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="logs-.*\.csv"$/);
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(KINDS.log.recordColumns.join(','));
    expect(lines).toHaveLength(4);
    const messageAt = KINDS.log.recordColumns.indexOf('message');
    // The newest first; a message with a colon needs no quotes, metadata (JSON with quotes and commas) does.
    expect(lines[1]).toContain('payment declined: card expired');
    expect(lines[1]).toContain('"{""user_id"":""u_1042""}"');
    expect(messageAt).toBeGreaterThan(0);
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('-1')).toBe("'-1");
  });

  it('streams NDJSON records equal to the list, bounded by limit, and refuses an unknown format', async () => {
    const listed = (await get(`/logs?${RANGE}`)).logs;
    const lines = (await exported('format=ndjson')).body
      .split('\n')
      .filter(Boolean)
      .map((l: string) => JSON.parse(l));
    expect(lines).toEqual(listed);
    expect((await exported('format=ndjson&limit=2')).body.split('\n').filter(Boolean)).toHaveLength(2);
    expect((await call('GET', `/api/projects/${project}/logs/export?format=xlsx`)).statusCode).toBe(400);
    expect((await call('GET', `/api/projects/${project}/logs/export?limit=100001`)).statusCode).toBe(400);
  });
});

describe('logs explorer API', () => {
  it('searches message and metadata with the documented syntax, and says which terms to highlight', async () => {
    const messages = async (q: string) => (await get(`/logs?${RANGE}&q=${encodeURIComponent(q)}`)).logs.map((l: { message: string }) => l.message);
    expect(await messages('metadata.user_id:u_1042')).toEqual(['payment declined: card expired', 'order placed']);
    expect(await messages('u_1042 -level:error')).toEqual(['order placed']);
    expect(await messages('level:>=warn')).toEqual(['payment declined: card expired', 'payment slow']);
    expect(await messages('"card expired" OR cache')).toEqual(['cache miss', 'payment declined: card expired']);
    expect(await messages('service:check* metadata.ms:>500')).toEqual(['payment slow']);
    expect((await get(`/logs?${RANGE}&q=${encodeURIComponent('payment -slow "card exp*"')}`)).terms).toEqual(['payment', 'card exp*']);
  });

  it('answers a search it cannot read with a 400 that says what and where', async () => {
    const res = await call('GET', `/api/projects/${project}/logs?q=${encodeURIComponent('level:loud')}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({ path: ['q'], message: 'search: level is one of debug, info, warn, error, not "loud" (at character 1)' });
  });

  it('counts matching logs per bucket and level', async () => {
    const v = await get(`/logs/volume?from=${T0}&to=${T0 + 5 * 60_000}&buckets=5&q=service:checkout`);
    expect(v).toMatchObject({ from: T0, step_ms: 60_000, buckets: 5 });
    expect(v.levels).toEqual({ debug: [0, 0, 0, 0, 0], info: [1, 0, 0, 0, 0], warn: [0, 1, 0, 0, 0], error: [0, 0, 1, 0, 0] });
  });

  it('gives facets with counts: columns exactly, metadata keys with their values', async () => {
    const f = await get(`/logs/facets?${RANGE}`);
    expect(f.columns.service).toEqual([
      { value: 'checkout', count: 3 },
      { value: 'cart', count: 2 },
    ]);
    expect(f.columns.level).toHaveLength(4);
    expect(f.columns.environment).toEqual([{ value: 'production', count: 5 }]);
    expect(f.metadata[0]).toEqual({
      key: 'user_id',
      count: 3,
      numeric: false,
      values: [
        { value: 'u_1042', count: 2 },
        { value: 'u_7', count: 1 },
      ],
    });
    expect(f.metadata.map((m: { key: string }) => m.key).sort()).toEqual(['cart', 'key', 'ms', 'user_id']);
    expect(f.sampled).toBe(5);
    expect(f.metadata.filter((m: { numeric: boolean }) => m.numeric).map((m: { key: string }) => m.key)).toEqual(['cart', 'ms']);
    const filtered = await get(`/logs/facets?${RANGE}&q=level:error`);
    expect(filtered.columns.service).toEqual([{ value: 'checkout', count: 1 }]);
  });

  it("counts a numeric metadata key's logs in ranges; refuses a key the search cannot write and too many ranges", async () => {
    expect(await get(`/logs/facets/ranges?${RANGE}&key=ms`)).toEqual({ key: 'ms', min: 812, max: 812, ranges: [{ from: null, to: 812, count: 1 }] });
    expect(await get(`/logs/facets/ranges?${RANGE}&key=user_id`)).toEqual({ key: 'user_id', min: null, max: null, ranges: [] });
    expect((await get(`/logs/facets/ranges?${RANGE}&key=ms&q=level:error`)).ranges).toEqual([]);
    for (const bad of ['key=a%20b', 'key=a:b', 'key=', 'key=ms&buckets=11', 'key=ms&buckets=1'])
      expect((await call('GET', `/api/projects/${project}/logs/facets/ranges?${RANGE}&${bad}`)).statusCode, bad).toBe(400);
  });

  it('shows the lines around a log, oldest first, optionally of its service', async () => {
    const { logs } = await get(`/logs?${RANGE}&q=${encodeURIComponent('"payment slow"')}`);
    const anchor = logs[0];
    const around = await get(`/logs/surrounding?event_id=${anchor.event_id}&timestamp=${anchor.timestamp}&before=1&after=1`);
    expect(around.logs.map((l: { message: string }) => l.message)).toEqual(['order placed', 'payment slow', 'payment declined: card expired']);
    const same = await get(`/logs/surrounding?event_id=${anchor.event_id}&timestamp=${anchor.timestamp}&before=5&after=5&service=checkout`);
    expect(same.logs).toHaveLength(3);
  });

  it('saves searches per project, replaces by name, refuses a search it cannot read, deletes', async () => {
    const path = `/api/projects/${project}/saved-queries`;
    const saved = await call('POST', path, { name: 'errors of u_1042', query: 'user_id:u_1042 level:error', range: '1h' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().saved_query).toMatchObject({ name: 'errors of u_1042', query: 'user_id:u_1042 level:error', range: '1h' });
    const bad = await call('POST', path, { name: 'broken', query: '"open' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.issues[0]).toMatchObject({ path: ['query'], message: 'search: a quote is not closed (at character 1)' });
    expect((await call('POST', path, { name: 'x', query: 'a', range: 'yesterday' })).statusCode).toBe(400);
    expect((await get('/saved-queries')).saved_queries.map((q: { name: string }) => q.name)).toEqual(['errors of u_1042']);
    const id = saved.json().saved_query.id;
    expect((await call('DELETE', `${path}/${id}`)).statusCode).toBe(204);
    const again = await call('DELETE', `${path}/${id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Saved search not found' });
  });
});

describe('trace search API', () => {
  const ops = async (q: string) => (await get(`/traces?${RANGE}&${q}`)).traces.map((t: { operation: string }) => t.operation);

  it('finds traces by part of the root operation, a service of any span, duration and status', async () => {
    expect(await ops('operation=api/CH')).toEqual(['POST /api/checkout']);
    expect(await ops('service=payments')).toEqual(['POST /api/checkout']);
    expect(await ops('min_duration_ms=100')).toEqual(['POST /api/checkout']);
    expect(await ops('max_duration_ms=100')).toEqual(['GET /api/cart']);
    expect(await ops('status=error')).toEqual(['POST /api/checkout']);
    expect(await ops('status=ok')).toEqual(['GET /api/cart']);
  });

  it('summarises each trace: spans, errors, services', async () => {
    const [t] = (await get(`/traces?${RANGE}&operation=checkout`)).traces;
    expect(t).toMatchObject({ trace_id: 'trace-1', span_count: 2, error_count: 1, services: ['checkout', 'payments'] });
  });

  it("lists a trace's errors by its trace id", async () => {
    const { errors } = await get(`/errors?${RANGE}&trace_id=trace-1`);
    expect(errors.map((e: { trace_id: string; error_type: string }) => [e.trace_id, e.error_type])).toEqual([['trace-1', 'CardError']]);
  });
});

describe('LLM explorer API', () => {
  it('lists calls with their metadata (and the trace id in it), filtered by a metadata value', async () => {
    const { calls } = await get(`/llm-calls?${RANGE}`);
    expect(calls).toHaveLength(4);
    expect(calls[3]).toMatchObject({ model: 'gpt-4o', latency_ms: 900, metadata: { feature: 'search', trace_id: 'trace-1' } });
    expect(calls[3].estimated_cost_usd).toBeGreaterThan(0);
    const search = await get(`/llm-calls?${RANGE}&metadata=${encodeURIComponent('feature:search')}`);
    expect(search.calls.map((c: { latency_ms: number }) => c.latency_ms)).toEqual([1500, 900]);
  });

  it('breaks usage down by any metadata key, and lists the keys', async () => {
    const r = await get(`/llm-calls/by-metadata?${RANGE}&key=feature`);
    expect(r.values.map((v: { value: string | null; calls: number }) => [v.value, v.calls])).toEqual([
      ['search', 2],
      ['summary', 1],
      [null, 1],
    ]);
    // quantileExact takes the element at floor(0.5 × n): of two, the larger.
    expect(r.values[0]).toMatchObject({ input_tokens: 200, output_tokens: 100, latency_p50_ms: 1500, latency_p95_ms: 1500 });
    expect((await get(`/llm-calls/metadata-keys?${RANGE}`)).keys).toEqual([
      { key: 'feature', calls: 3 },
      { key: 'trace_id', calls: 1 },
    ]);
  });

  it('gives latency percentiles over time', async () => {
    const r = await get(`/llm-calls/latency?from=${T0}&to=${T0 + 4 * 60_000}&buckets=4`);
    expect(r.calls).toEqual([1, 1, 1, 1]);
    expect(r.p95).toEqual([900, 1500, 300, 100]);
  });
});

describe('not found', () => {
  it('answers JSON for API paths and for API clients, the UI page (404) for a browser elsewhere', async () => {
    const api = await call('GET', '/api/nothing-here', undefined, { accept: 'text/html' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'Not found: GET /api/nothing-here' });
    const client = await app.inject({ method: 'GET', url: '/no/such/page' });
    expect(client.statusCode).toBe(404);
    expect(client.json()).toEqual({ error: 'Not found: GET /no/such/page' });
    const browser = await app.inject({ method: 'GET', url: '/no/such/page', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(browser.statusCode).toBe(404);
    expect(browser.headers['content-type']).toContain('text/html');
    expect(browser.body).toContain('<div id="app">');
  });
});
