import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CRASH_FREE_WINDOW_MINUTES, DEFAULT_MIN_SESSIONS, MAX_MIN_SESSIONS, MAX_WINDOW_MINUTES } from '@devtrail/alerting';
import { MAX_RELEASE_LENGTH } from '@devtrail/kinds';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// The crash_free_rate rule (docs/alerts.md, "Rules") through the embedded process: its input
// bounds at the rule API, then sessions sent to POST /ingest/sessions, stored by the sessions
// sink, read on the alerts consumer's timer and delivered to a real webhook. A release under
// the bound with enough sessions fires; a crashed session alone does not, unless a rule asks
// for one session only.

let e: EmbeddedProcess;
let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
  e = await startEmbeddedProcess({ ALERT_CHECK_INTERVAL_MS: '300', ALERT_WEBHOOK_PRIVATE_ADDRESSES: 'allow' });
}, 120_000);
afterAll(async () => {
  await e?.close();
  await hooks?.close();
});

const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${e.url}/api/projects/${e.project.id}${path}`, {
    method,
    headers: { authorization: `Bearer ${e.operatorToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (r.status === 204 ? null : await r.json()) as any };
};
const rule = (params: Record<string, unknown>, path = '/crash') => ({
  name: 'crash-free',
  type: 'crash_free_rate',
  params,
  destinations: [{ type: 'webhook', url: `${hooks.url}${path}` }],
});

/** `count` sessions of a release, the first `crashed` of them crashed: a start and an end each, as the SDK sends them. */
async function sessions(release: string, count: number, crashed: number, startedMinutesAgo: number) {
  for (let i = 0; i < count; i++) {
    const session = { release, session_id: `${release}-${i}`, distinct_id: `u${i}`, start_time: new Date(Date.now() - startedMinutesAgo * 60_000).toISOString() };
    for (const update of [
      { ...session, status: 'ok', seq: 0 },
      { ...session, status: i < crashed ? 'crashed' : 'exited', seq: 1 },
    ]) {
      const r = await fetch(`${e.url}/ingest/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${e.project.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(update),
      });
      expect(r.status).toBe(200);
    }
  }
}
const stored = async () => (await api('GET', '/releases/health')).body.releases as Array<{ release: string; sessions: number; crashed: number }>;

describe('the crash_free_rate alert rule', () => {
  it('takes its parameters within bounds, with defaults for the window and the minimum of sessions', async () => {
    for (const params of [
      {},
      { threshold: 0 },
      { threshold: 1.01 },
      { threshold: 0.9, min_sessions: 0 },
      { threshold: 0.9, min_sessions: 1.5 },
      { threshold: 0.9, min_sessions: MAX_MIN_SESSIONS + 1 },
      { threshold: 0.9, window_minutes: MAX_WINDOW_MINUTES + 1 },
      { threshold: 0.9, release: '' },
      { threshold: 0.9, release: 'r'.repeat(MAX_RELEASE_LENGTH + 1) },
      { threshold: 0.9, budget_usd: 1 },
    ]) {
      const r = await api('POST', '/alert-rules', rule(params));
      expect(r.status, JSON.stringify(params)).toBe(400);
    }
    const ok = await api('POST', '/alert-rules', rule({ threshold: 0.995 }, '/defaults'));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.rule.params).toEqual({ threshold: 0.995, min_sessions: DEFAULT_MIN_SESSIONS, window_minutes: DEFAULT_CRASH_FREE_WINDOW_MINUTES });
    expect((await api('DELETE', `/alert-rules/${ok.body.rule.id}`)).status).toBe(204);
  });

  it('fires once for a release under the bound with enough sessions; not for one crashed session of one', { timeout: 90_000 }, async () => {
    const every = await api('POST', '/alert-rules', rule({ threshold: 0.9, min_sessions: 5, window_minutes: 60 }));
    expect(every.status, JSON.stringify(every.body)).toBe(201);
    const solo = await api('POST', '/alert-rules', rule({ threshold: 0.5, min_sessions: 1, release: 'solo' }, '/solo'));
    expect(solo.status).toBe(201);

    // Started later than "bad": the releases are read newest first, so any notification of these
    // would be queued before bad's in the same check.
    await sessions('solo', 1, 1, 5);
    await sessions('healthy', 5, 0, 5);
    await expect
      .poll(async () => (await stored()).map((r) => `${r.release}:${r.sessions}:${r.crashed}`).sort(), { timeout: 30_000 })
      .toEqual(['healthy:5:0', 'solo:1:1']);
    await sessions('bad', 5, 1, 30);

    await expect.poll(() => hooks.received('/crash').length, { timeout: 30_000 }).toBe(1);
    const fired = JSON.parse(hooks.received('/crash')[0].body);
    expect(fired).toMatchObject({
      type: 'alert.fired',
      rule: { id: every.body.rule.id, type: 'crash_free_rate' },
      title: 'Release bad: 80% crash-free sessions',
      value: 0.8,
      threshold: 0.9,
      window_minutes: 60,
    });
    expect(fired.dedup_key).toMatch(/^crash_free_rate\|bad\|\d+$/);
    expect(fired.text).toContain('1 of 5 sessions of release bad');
    // Every notification queued, of both rules: "solo" only for the rule that asks for one session.
    // Had the first rule fired for "solo", that would have been queued before "bad" and be listed.
    const queued = async () =>
      (await api('GET', '/alert-notifications?limit=100')).body.notifications
        .map((n: any) => `${n.rule_id === every.body.rule.id ? 'every' : 'solo'}: ${n.title}`)
        .sort();
    await expect.poll(queued, { timeout: 30_000 }).toEqual(['every: Release bad: 80% crash-free sessions', 'solo: Release solo: 0% crash-free sessions']);
    await expect.poll(() => hooks.received('/solo').length, { timeout: 30_000 }).toBe(1);
  });
});
