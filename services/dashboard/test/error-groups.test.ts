import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBatch, newEvents } from '@devtrail/contract';
import { errorReportSchema, errorToEvent, fingerprint, fingerprintV2, previousFingerprint, type ErrorEvent } from '@devtrail/kinds';
import { ingest, startDashboard } from './support/dashboard.ts';

// Error groups end to end in one process (receiver, sinks, alerts consumer, read API; the
// embedded adapters): a project upgraded with live groups keeps them (events of the same
// errors join the groups the previous rule made, with their triage state and alert rules);
// a group merged by hand takes the other's events, stored and to come, and its history; the
// list and the group page answer who, where and since when (docs/fingerprint.md, docs/api.md).

type Dt = Awaited<ReturnType<typeof startDashboard>>;

const until = async (what: string, ok: () => Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
};

const stripe = (line: number) => ({
  service: 'checkout',
  environment: 'production',
  release: 'v1',
  error_message: 'Stripe request timed out',
  stack_trace: `StripeConnectionError: Stripe request timed out\n    at chargeCard (/app/dist/billing/charge.js:${line}:20)\n    at async complete (/app/dist/routes/checkout.js:88:5)`,
});

describe('error groups: upgrade, merge, list and group page', () => {
  let dt: Dt;
  let project: { id: string; key: string };
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${dt.url}/api/projects/${project.id}${path}`, {
      method,
      headers: { authorization: `Bearer ${dt.operatorToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  const sql = <T>(q: string, params: unknown[] = []) => dt.adapters.relational.query<T>(q, params);
  const groupCount = async (fp: string) => (await api('GET', `/error-groups/${fp}`)).body.group?.count ?? 0;

  /** An event as a receiver before this rule wrote it: an earlier rule's fingerprint (v1's by default), no previous_fingerprint. */
  async function produceAsBefore(report: Record<string, unknown>, rule: (r: never) => string = previousFingerprint) {
    const event = errorToEvent(errorReportSchema.parse(report), new Date().toISOString()) as Partial<ErrorEvent>;
    delete event.previous_fingerprint;
    event.fingerprint = rule(errorReportSchema.parse(report) as never);
    const producer = dt.adapters.messageLog.createProducer();
    await producer.connect();
    await producer.send([
      { topic: dt.adapters.topics.of('error'), messages: [encodeBatch('error', project.id, new Date().toISOString(), newEvents([event as ErrorEvent]))] },
    ]);
    await producer.disconnect();
    return event.fingerprint;
  }

  beforeAll(async () => {
    dt = await startDashboard();
    project = { id: dt.firstProject!.id, key: dt.firstProject!.apiKey };
  }, 120_000);
  afterAll(async () => dt?.close());

  it('after an upgrade, events of an error join the group the previous rule made, with its triage state and alert rules', async () => {
    const old = await produceAsBefore(stripe(41));
    expect(old).not.toBe(fingerprint(stripe(41))); // the rules differ: without the previous fingerprint, this would split
    await until(
      'the old group and its state',
      async () => (await groupCount(old)) === 1 && (await sql('SELECT 1 FROM error_group_states WHERE fingerprint = $1', [old])).length === 1,
    );
    expect((await api('POST', '/error-groups/triage', { fingerprints: [old], action: 'resolve' })).status).toBe(200);
    const rule = await api('POST', '/alert-rules', {
      name: 'regressions',
      type: 'regressed_group',
      destinations: [{ type: 'webhook', url: 'https://hooks.example.com/devtrail' }],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);

    // the same error after the upgrade, from a deploy that moved its line
    const res = await ingest(dt.url, project.key, 'errors', stripe(48));
    expect(res).toEqual({ status: 200, body: { ok: true, fingerprint: old } });
    await until('the new event in the old group', async () => (await groupCount(old)) === 2);
    const triage = await api('GET', `/error-groups/${old}/triage`);
    expect(triage.body.state).toMatchObject({ status: 'unresolved', substatus: 'regressed', regressions: 1 });
    expect(triage.body.history.map((h: any) => h.action)).toEqual(expect.arrayContaining(['regression', 'resolve']));
    await until('the regression notification', async () => (await sql('SELECT 1 FROM alert_notifications WHERE dedup_key = $1', [`regressed|${old}|1`])).length === 1);
    // stored with both fingerprints: the group it joined and the previous rule's
    const stored = await api('GET', `/errors?fingerprint=${old}&from=${Date.now() - 3_600_000}`);
    expect(stored.body.errors.map((e: any) => e.previous_fingerprint).sort()).toEqual(['', old]);

    // an error the previous rule never saw gets a group of the current rule
    const fresh = await ingest(dt.url, project.key, 'errors', {
      ...stripe(1),
      error_message: 'x',
      stack_trace: 'RangeError: x\n    at somewhereElse (/app/dist/x.js:1:1)',
    });
    expect(fresh.body.fingerprint).toBe(fingerprint({ error_message: 'x', stack_trace: 'RangeError: x\n    at somewhereElse (/app/dist/x.js:1:1)' }));
  }, 90_000);

  it('a group rule v2 made (before the cross-platform normalisations) takes the same error after the upgrade', async () => {
    // Typed by its code under the current rule (ECONNREFUSED), as Error under v2: another fingerprint.
    const refused = (ip: string) => ({
      service: 'cart',
      environment: 'production',
      error_message: `connect ECONNREFUSED ${ip}:5432`,
      stack_trace: `Error: connect ECONNREFUSED ${ip}:5432\n    at async loadCart (/app/dist/cart/load.js:21:9)`,
    });
    const made = await produceAsBefore(refused('10.0.0.5'), fingerprintV2 as never);
    expect(made).not.toBe(fingerprint(refused('10.0.0.5')));
    await until(
      'the v2 group and its state',
      async () => (await groupCount(made)) === 1 && (await sql('SELECT 1 FROM error_group_states WHERE fingerprint = $1', [made])).length === 1,
    );
    const res = await ingest(dt.url, project.key, 'errors', refused('10.0.0.9'));
    expect(res).toEqual({ status: 200, body: { ok: true, fingerprint: made } });
    await until('the new event in the v2 group', async () => (await groupCount(made)) === 2);
  }, 60_000);

  it("merges a group into another: its stored and later events, and its history, are the target's", async () => {
    const a = (await ingest(dt.url, project.key, 'errors', { error_message: 'a', stack_trace: 'Error: a\n    at alpha (/app/src/a.ts:1:1)', user_id: 'u1' })).body
      .fingerprint as string;
    const b = (await ingest(dt.url, project.key, 'errors', { error_message: 'b', stack_trace: 'Error: b\n    at beta (/app/src/b.ts:1:1)', user_id: 'u2' })).body
      .fingerprint as string;
    await until(
      'both groups',
      async () =>
        (await groupCount(a)) === 1 && (await groupCount(b)) === 1 && (await sql('SELECT 1 FROM error_group_states WHERE fingerprint = ANY($1)', [[a, b]])).length === 2,
    );
    expect((await api('POST', '/error-groups/triage', { fingerprints: [a], action: 'ignore' })).status).toBe(200);
    const merged = await api('POST', `/error-groups/${a}/merge`, { into: b });
    expect(merged).toEqual({ status: 200, body: { fingerprint: b, merged: a } });
    expect((await api('POST', `/error-groups/${b}/merge`, { into: a })).status).toBe(409);

    const page = await api('GET', `/error-groups/${b}`);
    expect(page.body.group).toMatchObject({ fingerprint: b, count: 2, users: 2 });
    expect(page.body.merged).toEqual([a]);
    expect((await api('GET', `/error-groups/${a}`)).body.group).toMatchObject({ fingerprint: b, count: 2 }); // the merged one answers as its target
    expect((await api('GET', `/error-groups/${a}/triage`)).body.fingerprint).toBe(b);
    const history = (await api('GET', `/error-groups/${b}/triage`)).body.history.map((h: any) => h.action);
    expect(history).toEqual(expect.arrayContaining(['merge', 'ignore']));
    // a later event of the merged group joins the target, and the answer says so
    const later = await ingest(dt.url, project.key, 'errors', { error_message: 'a', stack_trace: 'Error: a\n    at alpha (/app/src/a.ts:9:9)', user_id: 'u3' });
    expect(later.body.fingerprint).toBe(b);
    await until('the later event in the target', async () => (await groupCount(b)) === 3);
    const list = await api('GET', `/error-groups?from=${Date.now() - 3_600_000}&limit=1000`);
    expect(list.body.groups.filter((g: any) => g.fingerprint === a)).toEqual([]);
    expect(list.body.groups.find((g: any) => g.fingerprint === b)).toMatchObject({ count: 3, range_count: 3, users: 3 });
  }, 90_000);

  it('lists groups with users, search, a service filter and sorting; a group page with tags, releases, a chart and paged occurrences', async () => {
    const base = Date.now();
    const report = (i: number) => ({
      service: i % 4 === 0 ? 'web' : 'api',
      environment: 'production',
      release: `2026.11.${1 + (i % 3)}`,
      error_message: `Order ${1000 + i} not found`,
      stack_trace: `NotFoundError: Order ${1000 + i} not found\n    at loadOrder (/app/src/orders.ts:${10 + i}:3)`,
      user_id: `user-${i % 5}`,
      ...(i % 3 === 0 ? { trace_id: `${(i + 10).toString(16).padStart(2, '0')}`.repeat(16) } : {}),
      context: { browser: i % 2 ? 'Firefox' : 'Chrome', user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', tenant: `t${i % 2}`, request_id: `req-${i}` },
    });
    let fp = '';
    for (let i = 0; i < 12; i++) fp = (await ingest(dt.url, project.key, 'errors', report(i))).body.fingerprint as string;
    const quiet = (await ingest(dt.url, project.key, 'errors', { service: 'web', error_message: 'quiet', stack_trace: 'Error: quiet\n    at q (/app/src/q.ts:1:1)' }))
      .body.fingerprint as string;
    await until('the orders group', async () => (await groupCount(fp)) === 12 && (await groupCount(quiet)) === 1);

    const list = async (query: string) => (await api('GET', `/error-groups?from=${base}&${query}`)).body.groups.map((g: any) => g.fingerprint);
    const rows = (await api('GET', `/error-groups?from=${base}`)).body.groups;
    expect(rows.find((g: any) => g.fingerprint === fp)).toMatchObject({ count: 12, range_count: 12, users: 5 });
    expect(await list('sort=users')).toEqual([fp, quiet]);
    expect(await list('sort=events')).toEqual([fp, quiet]);
    expect((await list('sort=first_seen'))[0]).toBe(quiet);
    expect(await list(`q=${encodeURIComponent('"not found" tenant:t1')}`)).toEqual([fp]);
    expect(await list(`q=${encodeURIComponent('user:user-3')}`)).toEqual([fp]);
    expect(await list(`q=${encodeURIComponent('-NotFoundError')}`)).toEqual([quiet]);
    expect(await list('service=web&sort=users')).toEqual([fp, quiet]);
    const narrowed = (await api('GET', `/error-groups?from=${base}&q=${encodeURIComponent('release:2026.11.1')}`)).body.groups[0];
    expect(narrowed).toMatchObject({ fingerprint: fp, count: 12, range_count: 4 });
    expect((await api('GET', '/error-groups?q=%22unclosed')).status).toBe(400);
    expect((await api('GET', '/error-groups?sort=loudest')).status).toBe(400);

    const page = (await api('GET', `/error-groups/${fp}`)).body;
    const tag = (key: string) => Object.fromEntries(page.tags.find((t: any) => t.key === key).values.map((v: any) => [v.value, v.count]));
    expect(tag('release')).toEqual({ '2026.11.1': 4, '2026.11.2': 4, '2026.11.3': 4 });
    expect(tag('service')).toEqual({ api: 9, web: 3 });
    expect(tag('browser')).toEqual({ Chrome: 6, Firefox: 6 });
    expect(tag('os')).toEqual({ Windows: 12 });
    expect(tag('context.tenant')).toEqual({ t0: 6, t1: 6 });
    // a tag whose every value is its own (a request id) is left out
    expect(page.tags.map((t: any) => t.key)).not.toContain('context.request_id');
    // the most affected users: user-0 and user-1 three times each (i = 0, 5, 10 and 1, 6, 11)
    expect(
      page.top_users
        .slice(0, 2)
        .map((u: any) => [u.user_id, u.count])
        .sort(),
    ).toEqual([
      ['user-0', 3],
      ['user-1', 3],
    ]);
    expect(page.top_users).toHaveLength(5);
    // occurrences with a trace only
    const traced = (await api('GET', `/errors?fingerprint=${fp}&from=${Date.parse(page.group.first_seen)}&has_trace=true`)).body.errors;
    expect(traced).toHaveLength(4);
    expect(traced.every((e: any) => e.trace_id !== '')).toBe(true);
    expect((await api('GET', `/errors?fingerprint=${fp}&has_trace=maybe`)).status).toBe(400);
    expect(page.releases.map((r: any) => [r.release, r.count])).toEqual([
      ['2026.11.1', 4],
      ['2026.11.2', 4],
      ['2026.11.3', 4],
    ]);
    expect(page.chart.counts.reduce((a: number, b: number) => a + b, 0)).toBe(12);
    expect(page.recent).toHaveLength(12);
    // every occurrence, page by page
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const r: any = (
        await api('GET', `/errors?fingerprint=${fp}&from=${Date.parse(page.group.first_seen)}&limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      ).body;
      for (const e of r.errors) seen.add(e.event_id);
      cursor = r.next_cursor;
    } while (cursor);
    expect(seen.size).toBe(12);
  }, 90_000);
});
