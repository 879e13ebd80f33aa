import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, loadConfig } from '@devtrail/config';
import { createHttpApp } from '@devtrail/http';
import { KINDS, parseSearch, printSearch, SPAN_SEARCH, type SearchNode } from '@devtrail/kinds';

const parseSpanSearch = (q: string) => parseSearch(q, SPAN_SEARCH);
import { embeddedAdapters } from '../../../test/support/embedded-adapters.ts';
import { tracesMatching, type ReferenceSpan } from '../../../libs/kinds/test/span-search-reference.ts';
import { registerControlPlane, registerDashboardUi } from '../src/index.ts';
import { runs } from '../../../test/support/property.ts';

// Trace search through the read API (GET /traces?q=…&sort=…, inject over chdb and PGlite),
// held to a plain reading of the documented syntax (span-search-reference.ts): for random
// searches over random traces whose spans share the same words, attributes, resource
// attributes, services in two cases and durations, the API lists exactly the traces the
// reference selects, in its order. Then the service picker, the service map and the 400.

const OPERATOR = 'dto_operator_token_for_traces_0123456789';
let app: FastifyInstance;
let close: () => Promise<void>;
let project: string;
const T0 = Math.floor(Date.now() / 3600_000) * 3600_000 - 2 * 3600_000;
const FROM = T0 - 30 * 60_000;
const TO = T0 + 30 * 60_000;

const WORDS = ['checkout', 'Checkout', 'GET /cart', 'db.query', 'é', '50%', 'a_b', 'x"y', 'acme'];
const SERVICES = ['checkout', 'Checkout', 'cart', 'payments', 'É'];
const ROUTES = ['/checkout', '/cart', '/api/a_b', '/x%y'];
const DURATIONS = [0, 1, 250, 999, 1000, 2000, 2500, 60_000];
const attributes = fc.record(
  {
    'http.route': fc.constantFrom(...ROUTES),
    tenant: fc.constantFrom('acme', 'Acme', 'globex'),
    'db.system': fc.constantFrom('postgresql', 'redis'),
    http: fc.record({ status_code: fc.constantFrom(200, 500) }),
    retries: fc.integer({ min: 0, max: 3 }),
    cached: fc.boolean(),
    'otel.resource': fc.record({ 'host.name': fc.constantFrom('web-1', 'web-2'), region: fc.constantFrom('eu', 'us') }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const spanArb = fc.record({
  service: fc.constantFrom(...SERVICES),
  operation: fc.constantFrom(...WORDS),
  status: fc.constantFrom('ok', 'ok', 'error'),
  duration_ms: fc.constantFrom(...DURATIONS),
  metadata: attributes,
});
/** A trace: a root, then children each under an earlier span; the root starts in the range or up to 20 minutes outside it. */
const traceArb = fc.record({
  rootOffsetMs: fc.integer({ min: -50 * 60_000, max: 50 * 60_000 }),
  spans: fc.array(spanArb, { minLength: 1, maxLength: 5 }),
  parents: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
});

const text = fc.constantFrom(...WORDS, 'check', 'CART', 'acm', '%', '_', 'x"', 'é');
const exact = fc.constantFrom(...SERVICES, ...WORDS, 'prod', 'production', 'v1', 'chec');
const wild = fc.constantFrom('check*', '*out', 'GET*', '*a_b', 'É*', 'c*t');
const number = fc.constantFrom('0', '1', '250', '1000', '2000', '500', '200', '3');
const keyArb = fc.constantFrom('http.route', 'tenant', 'db.system', 'http.status_code', 'retries', 'cached', 'missing');
const resourceKey = fc.constantFrom('host.name', 'region', 'missing');

const fieldNode: fc.Arbitrary<SearchNode> = fc.oneof(
  fc
    .record({ field: fc.constantFrom('service', 'operation', 'environment', 'release', 'trace_id', 'parent_span_id'), value: fc.oneof(exact, wild) })
    .map(({ field, value }) => ({ type: 'field' as const, field, op: '=' as const, value, wildcard: value.includes('*') })),
  fc.constantFrom('service', 'release', 'parent_span_id').map((field) => ({ type: 'field' as const, field, op: 'exists' as const, value: '', wildcard: false })),
  fc.constantFrom('ok', 'error').map((value) => ({ type: 'field' as const, field: 'status', op: '=' as const, value, wildcard: false })),
  fc
    .record({ op: fc.constantFrom('=', '>', '>=', '<', '<='), value: number })
    .map(({ op, value }) => ({ type: 'field' as const, field: 'duration', op: op as '=', value, wildcard: false })),
  fc
    .record({
      field: fc.constantFrom('metadata', 'resource'),
      key: keyArb,
      v: fc.oneof(
        fc.record({ op: fc.constant('=' as const), value: fc.oneof(text, number, fc.constantFrom(...ROUTES, 'true', 'web-1', 'eu')), wildcard: fc.constant(false) }),
        fc.record({ op: fc.constantFrom('>', '>=', '<', '<='), value: number, wildcard: fc.constant(false) }),
        fc.constant({ op: 'exists', value: '', wildcard: false }),
      ),
    })
    .map(({ field, key, v }) => ({
      type: 'field' as const,
      field,
      key: field === 'resource' ? key.replace('http.route', 'host.name') : key,
      ...(v as { op: '='; value: string; wildcard: boolean }),
    })),
  resourceKey.map((key) => ({ type: 'field' as const, field: 'resource', key, op: '=' as const, value: 'web-1', wildcard: false })),
);
const textNode: fc.Arbitrary<SearchNode> = text.map((value) => ({ type: 'text' as const, value, wildcard: false }));
const tree: fc.Arbitrary<SearchNode> = fc.letrec<{ node: SearchNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    textNode,
    fieldNode,
    tie('node').map((child) => ({ type: 'not' as const, child })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children) => ({ type: 'and' as const, children })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children) => ({ type: 'or' as const, children })),
  ),
})).node;

const spans: ReferenceSpan[] = fc.sample(traceArb, { numRuns: 60, seed: 34 }).flatMap((t, i) => {
  const trace_id = `t${String(i).padStart(3, '0')}`;
  const start = T0 + t.rootOffsetMs;
  return t.spans.map((s, j) => ({
    ...s,
    trace_id,
    span_id: `${trace_id}-${j}`,
    parent_span_id: j === 0 ? '' : `${trace_id}-${t.parents[j - 1] % j}`,
    environment: 'production',
    release: j % 2 === 0 ? 'v1' : '',
    start_ms: start + j * 1000,
    metadata: s.metadata as Record<string, unknown>,
  }));
});

function call(url: string, method: 'GET' | 'POST' = 'GET', body?: unknown) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${OPERATOR}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
const get = async (path: string) => {
  const res = await call(`/api/projects/${project}${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const listed = async (query: Record<string, string>) =>
  (await get(`/traces?${new URLSearchParams({ from: String(FROM), to: String(TO), limit: '1000', ...query })}`)).traces.map((t: { trace_id: string }) => t.trace_id);

beforeAll(async () => {
  const adapters = await embeddedAdapters();
  const logger = createLogger('silent', 'trace-search-test');
  app = await createHttpApp(logger, 1024 * 1024);
  const ui = await registerDashboardUi(app, adapters, logger, {
    operatorToken: OPERATOR,
    security: loadConfig({}).dashboard,
    dataDir: mkdtempSync(join(tmpdir(), 'dt-traces-')),
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
  project = (await call('/api/admin/projects', 'POST', { name: 'traces' })).json().project.id;
  const received = new Date(T0).toISOString();
  await adapters.columnStore.insert(
    KINDS.span.name,
    spans.map(({ start_ms, status, ...s }) =>
      KINDS.span.toRow(
        { project_id: project, event_id: randomUUID(), received_at: received, data: { ...s, status: status as 'ok', start_time: new Date(start_ms).toISOString() } },
        30,
      ),
    ),
  );
}, 180_000);
afterAll(async () => close?.());

describe('trace search through the read API', () => {
  it('lists exactly the traces one of whose spans matches the search, newest or longest first, for any search', async () => {
    const RUNS = runs(100);
    let between = 0;
    await fc.assert(
      fc.asyncProperty(tree, fc.constantFrom('time', 'duration'), async (node, sort) => {
        const q = printSearch(node, SPAN_SEARCH);
        // The text the API is sent reads back as the tree the reference evaluates.
        expect(parseSpanSearch(q)).toEqual(node);
        const expected = tracesMatching(spans, { fromMs: FROM, toMs: TO, search: node, sort: sort as 'time' });
        const roots = tracesMatching(spans, { fromMs: FROM, toMs: TO, search: null, sort: 'time' }).length;
        if (expected.length > 0 && expected.length < roots) between++;
        expect(await listed({ q, sort })).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
    // The searches were not trivially all or nothing (about half of them are, whatever the seed).
    expect(between).toBeGreaterThan(RUNS / 8);
  }, 120_000);

  it('takes the documented examples, the service in any case and the trace status beside a search', async () => {
    const ref = (q: string, more: { service?: string; status?: 'ok' | 'error' } = {}) =>
      tracesMatching(spans, { fromMs: FROM, toMs: TO, search: parseSpanSearch(q), sort: 'time', ...more });
    for (const q of [
      'http.route:/checkout duration:>2s',
      'duration:>=1000ms status:error',
      'resource.host.name:web-1',
      'tenant:acme -db.system:redis',
      'duration:<1s "GET /cart"',
    ]) {
      const expected = ref(q);
      expect(expected.length, q).toBeGreaterThan(0);
      expect(await listed({ q }), q).toEqual(expected);
    }
    expect(ref('duration:>2s')).toEqual(ref('duration:>2000'));
    const anyCase = ref('', { service: 'checkout' });
    expect(anyCase).toEqual(ref('service:checkout OR service:Checkout'));
    expect(await listed({ service: 'CHECKOUT' })).toEqual(anyCase);
    expect(await listed({ q: 'tenant:acme', status: 'ok', sort: 'duration' })).toEqual(
      tracesMatching(spans, { fromMs: FROM, toMs: TO, search: parseSpanSearch('tenant:acme'), status: 'ok', sort: 'duration' }),
    );
  });

  it('answers a search it cannot read with a 400 that says what and where', async () => {
    for (const [q, message] of [
      ['duration:>fast', 'search: duration needs a number of ms, or with a unit (us, ms, s, m, h): not "fast" (at character 1)'],
      ['x status:broken', 'search: status is ok or error, not "broken" (at character 3)'],
      ['service:>3', 'search: service cannot be compared with >: only duration and attribute numbers can (at character 1)'],
    ]) {
      const res = await call(`/api/projects/${project}/traces?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.issues[0]).toMatchObject({ path: ['q'], message });
    }
    expect((await call(`/api/projects/${project}/traces?sort=slowest`)).statusCode).toBe(400);
  });

  it('lists the services spans ran in, busiest first, for the service picker', async () => {
    const inRange = spans.filter((s) => s.start_ms >= FROM && s.start_ms <= TO);
    const counts = new Map<string, number>();
    for (const s of inRange) counts.set(s.service, (counts.get(s.service) ?? 0) + 1);
    const expected = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([s]) => s);
    expect((await get(`/spans/services?from=${FROM}&to=${TO}`)).services).toEqual(expected);
  });

  it('maps which service calls which, with calls, errors and p95 per edge', async () => {
    const byId = new Map(spans.map((s) => [s.span_id, s]));
    const edges = new Map<string, ReferenceSpan[]>();
    for (const s of spans) {
      const parent = byId.get(s.parent_span_id);
      if (!parent || parent.service === s.service || s.start_ms < FROM || s.start_ms > TO) continue;
      const k = `${parent.service}>${s.service}`;
      edges.set(k, [...(edges.get(k) ?? []), s]);
    }
    const map = await get(`/service-map?from=${FROM}&to=${TO}`);
    expect(map).toMatchObject({ from: FROM, to: TO });
    expect(map.edges.length).toBe(edges.size);
    for (const e of map.edges) {
      const calls = edges.get(`${e.caller}>${e.callee}`)!;
      const durations = calls.map((c) => c.duration_ms).sort((a, b) => a - b);
      // quantileExact: the element at floor(0.95 * n) of the sorted values.
      expect(e).toEqual({ ...e, calls: calls.length, errors: calls.filter((c) => c.status === 'error').length, p95_ms: durations[Math.floor(0.95 * durations.length)] });
    }
    expect(map.edges.map((e: { calls: number }) => e.calls)).toEqual([...map.edges.map((e: { calls: number }) => e.calls)].sort((a, b) => b - a));
  });
});
