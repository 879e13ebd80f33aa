import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TARGETS, type IngestTarget, type TargetMode } from '../support/ingest-targets.ts';
import { isJson4xx, rawRequest } from '../support/raw-http.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';
import { BROKEN_BODIES } from './broken-bodies.ts';
import { INGEST_ROUTE_SAMPLES } from './ingest-routes.ts';

// Broken bodies on every route: every ingest route x every broken body answers
// a 4xx JSON body, and the process still answers /health afterwards. Real processes, real
// sockets (node:http with exactly these headers), both modes. A case that kills the process
// fails with its exit code and output; the next case starts it again, so every case is
// judged on its own.
const up = await stackUp();

const modes: TargetMode[] = ['distributed', 'embedded'];

describe.skipIf(!up).each(modes)(`broken bodies on every ingest route (%s)${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, (mode) => {
  let t: IngestTarget;

  beforeAll(async () => {
    t = await TARGETS[mode]();
  }, 180_000);
  afterAll(async () => t?.close());
  beforeEach(async () => {
    if (!t.ingestAlive()) await t.restartIngest();
  }, 120_000);

  it('covers every ingest route the OpenAPI document declares', async () => {
    const doc = (await rawRequest(`${t.ingestUrl()}/openapi.json`, { method: 'GET' })).json as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const declared = Object.entries(doc.paths)
      .filter(([, ops]) => Object.values(ops).some((op) => op.tags?.includes('ingest')))
      .map(([path]) => path)
      .sort();
    expect(INGEST_ROUTE_SAMPLES.map((r) => r.path).sort()).toEqual(declared);
  });

  it.each(INGEST_ROUTE_SAMPLES)('each sample body is valid: $path answers 200', async (route) => {
    const r = await rawRequest(`${t.ingestUrl()}${route.path}`, {
      headers: { authorization: `Bearer ${t.project.key}`, 'content-type': 'application/json' },
      body: route.valid,
    });
    expect(r.status, r.text).toBe(200);
  });

  const cases = INGEST_ROUTE_SAMPLES.flatMap((route) => BROKEN_BODIES.map((broken) => ({ route: route.path, valid: route.valid, broken })));

  it.each(cases)('$route, $broken.name: 4xx JSON, and the process lives on', async ({ route, valid, broken }) => {
    const { headers, body } = broken.make(valid);
    let answer: Awaited<ReturnType<typeof rawRequest>> | Error;
    try {
      answer = await rawRequest(`${t.ingestUrl()}${route}`, { headers: { authorization: `Bearer ${t.project.key}`, ...headers }, body, timeoutMs: 15_000 });
    } catch (err) {
      answer = err as Error;
    }
    // An unhandled stream error kills the process just after the answer: give it that moment.
    await new Promise((r) => setTimeout(r, 100));
    const health = await rawRequest(`${t.ingestUrl()}/health`, { method: 'GET', timeoutMs: 5000 }).catch((err: Error) => err);

    expect(t.ingestAlive(), `the ${mode} ingest process died after this request: ${t.describeIngestDeath()}`).toBe(true);
    const said =
      answer instanceof Error ? `no answer: ${answer.message}` : `answered ${answer.status} (${String(answer.headers['content-type'])}): ${answer.text.slice(0, 300)}`;
    expect(!(answer instanceof Error) && isJson4xx(answer), said).toBe(true);
    expect(health instanceof Error ? `/health: ${health.message}` : health.status).toBe(200);
  });

  it('a request line past 16 KiB (a long query string): 431 JSON, as documented on every operation, and the process lives on', async () => {
    const r = await rawRequest(`${t.ingestUrl()}${INGEST_ROUTE_SAMPLES[0]!.path}?x=${'a'.repeat(20_000)}`, {
      headers: { authorization: `Bearer ${t.project.key}`, 'content-type': 'application/json' },
      body: INGEST_ROUTE_SAMPLES[0]!.valid,
    });
    expect(r.status, r.text).toBe(431);
    expect(isJson4xx(r), r.text).toBe(true);
    const doc = (await rawRequest(`${t.ingestUrl()}/openapi.json`, { method: 'GET' })).json as { paths: Record<string, Record<string, { responses: object }>> };
    const undocumented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => !('431' in op.responses))
        .map(([m]) => `${m} ${path}`),
    );
    expect(undocumented).toEqual([]);
    expect((await rawRequest(`${t.ingestUrl()}/health`, { method: 'GET', timeoutMs: 5000 })).status).toBe(200);
  });
});
