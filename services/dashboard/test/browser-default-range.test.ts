import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';

// A page's default range fits the data when there is little of it (docs/dashboard.md, "Time
// range"), in headless Chromium against the embedded process: a project whose only data is
// three days old opens every data page on the last 7 days, showing it, unless the URL names a
// range.

const DAY = 86_400_000;
const SLOW = { timeout: 15_000 };
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const ns = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** One GenAI span that failed with an exception: a trace, an LLM call and an error group, all at `at`. */
function otlpSpan(at: number) {
  const span = {
    traceId: TRACE,
    spanId: '00f067aa0ba902b7',
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: ns(at),
    endTimeUnixNano: ns(at + 800),
    attributes: [str('gen_ai.request.model', 'gpt-4o-mini'), str('gen_ai.system', 'openai'), { key: 'gen_ai.usage.input_tokens', value: { intValue: '12' } }],
    status: { code: 2 },
    events: [{ name: 'exception', timeUnixNano: ns(at + 700), attributes: [str('exception.type', 'BackupError'), str('exception.message', 'disk full')] }],
  };
  return { resourceSpans: [{ resource: { attributes: [str('service.name', 'nightly')] }, scopeSpans: [{ spans: [span] }] }] };
}

describe.skipIf(!browserAvailable())(`default ranges fit sparse data${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  const at = (path: string) => `/projects/${project.id}${path}`;

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { timezoneId: 'UTC' });
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, 'owner', 'correct horse battery');
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'sparse');
    // Every kind a page reads, sent once, three days ago: outside the default 24 hours.
    const then = Date.now() - 3 * DAY;
    const iso = new Date(then).toISOString();
    const post = async (path: string, body: unknown) => {
      const r = await fetch(`${dt.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${project.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status, await r.text()).toBe(200);
    };
    expect((await ingest(dt.url, project.key, 'logs', { service: 'nightly', logs: [{ level: 'info', message: 'backup finished', timestamp: iso }] })).status).toBe(200);
    await post('/v1/traces', otlpSpan(then));
    const session = { service: 'nightly', release: 'v7', session_id: 'backup-1', start_time: iso, timestamp: iso };
    for (const update of [
      { ...session, status: 'ok' },
      { ...session, status: 'exited', seq: 1 },
    ])
      expect((await ingest(dt.url, project.key, 'sessions', update)).status).toBe(200);
    await post('/v1/metrics', {
      resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'backup.size', gauge: { dataPoints: [{ timeUnixNano: ns(then), asDouble: 42 }] } }] }] }],
    });
  }, 90_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('stores each item three days old: the reads find it over 30 days, none in the default 24 hours', async () => {
    const count = async (path: string, list: string, days = 30) => {
      const range = `from=${Date.now() - days * DAY}&to=${Date.now() + 60_000}`;
      const r = await fetch(`${dt.url}/api/projects/${project.id}${path}${path.includes('?') ? '&' : '?'}${range}`, {
        headers: { authorization: `Bearer ${dt.operatorToken}` },
      });
      return ((await r.json()) as Record<string, unknown[]>)[list]?.length ?? 0;
    };
    const reads: Array<[string, string]> = [
      ['/logs', 'logs'],
      ['/traces', 'traces'],
      ['/error-groups/triage?status=unresolved', 'groups'],
      ['/llm-breakdown', 'models'],
      ['/releases/health', 'releases'],
      ['/metrics', 'metrics'],
    ];
    await expect.poll(async () => Promise.all(reads.map(([path, list]) => count(path, list))), { timeout: 20_000 }).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await Promise.all(reads.map(([path, list]) => count(path, list, 1)))).toEqual([0, 0, 0, 0, 0, 0]);
  }, 30_000);

  // Each page and what shows its one item.
  const pages: Array<[string, string]> = [
    ['/logs', 'log-row'],
    ['/traces', 'trace-row'],
    ['/errors', 'error-group-row'],
    ['/llm', 'llm-model-cost'],
    ['/releases', 'release-row'],
    ['/metrics', 'metric-line'],
  ];
  it.each(pages)('%s opens on the last 7 days, showing the data', async (path, item) => {
    const { page } = b;
    await page.goto(at(path));
    await expect.poll(() => new URL(page.url()).searchParams.get('range'), SLOW).toBe('7d');
    await expect.poll(() => page.getByTestId(item).count(), SLOW).toBe(1);
    expect(b.pageErrors).toEqual([]);
  });

  it('a range the URL names stays, empty as it is', async () => {
    const { page } = b;
    await page.goto(at('/releases?range=24h'));
    await page.getByTestId('releases-empty').waitFor(SLOW);
    expect(new URL(page.url()).searchParams.get('range')).toBe('24h');
  });
});
