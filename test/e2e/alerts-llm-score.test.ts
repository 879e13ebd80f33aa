import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIN_SCORES, DEFAULT_SCORE_WINDOW_MINUTES, MAX_MIN_SCORES } from '@devtrail/alerting';
import { MAX_SCORE_NAME } from '@devtrail/kinds';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// The llm_score rule (docs/alerts.md, "Rules") through the embedded process: its bounds at the
// rule API, then scores sent to POST /ingest/scores, stored by the scores sink, read on the
// alerts consumer's timer and delivered to a real webhook, once for the window.

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
const rule = (params: Record<string, unknown>, path = '/score') => ({
  name: 'unhappy',
  type: 'llm_score',
  params,
  destinations: [{ type: 'webhook', url: `${hooks.url}${path}` }],
});
const feedback = async (positive: boolean, i: number) => {
  const r = await fetch(`${e.url}/ingest/scores`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e.project.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: `fb-${i}`, name: 'user_feedback', value: positive, session_id: `s-${i}` }),
  });
  expect(r.status).toBe(200);
};

describe('the llm_score alert rule', () => {
  it('takes its parameters within bounds, with defaults for the window and the minimum of scores', async () => {
    for (const params of [
      {},
      { name: 'x' },
      { threshold: 0.5 },
      { name: '', threshold: 0.5 },
      { name: 'n'.repeat(MAX_SCORE_NAME + 1), threshold: 0.5 },
      { name: 'x', threshold: 0.5, min_scores: 0 },
      { name: 'x', threshold: 0.5, min_scores: MAX_MIN_SCORES + 1 },
      { name: 'x', threshold: 0.5, budget_usd: 1 },
    ]) {
      expect((await api('POST', '/alert-rules', rule(params))).status, JSON.stringify(params)).toBe(400);
    }
    const ok = await api('POST', '/alert-rules', rule({ name: 'x', threshold: 0.5 }, '/defaults'));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.rule.params).toEqual({ name: 'x', threshold: 0.5, min_scores: DEFAULT_MIN_SCORES, window_minutes: DEFAULT_SCORE_WINDOW_MINUTES });
    expect((await api('DELETE', `/alert-rules/${ok.body.rule.id}`)).status).toBe(204);
  });

  it('fires once when the average falls under the bound with enough scores', { timeout: 90_000 }, async () => {
    const created = await api('POST', '/alert-rules', rule({ name: 'user_feedback', threshold: 0.7, min_scores: 4, window_minutes: 60 }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Three thumbs down: under the bound, but too few to judge.
    for (let i = 0; i < 3; i++) await feedback(false, i);
    await expect.poll(async () => (await api('GET', '/scores/summary?name=user_feedback')).body.names[0]?.count, { timeout: 30_000 }).toBe(3);
    // A fourth, up: 1 of 4 is 0.25.
    await feedback(true, 3);
    await expect.poll(() => hooks.received('/score').length, { timeout: 30_000 }).toBe(1);
    const fired = JSON.parse(hooks.received('/score')[0].body);
    expect(fired).toMatchObject({
      type: 'alert.fired',
      rule: { id: created.body.rule.id, type: 'llm_score' },
      title: 'Score user_feedback averages 0.25',
      value: 0.25,
      threshold: 0.7,
      window_minutes: 60,
    });
    expect(fired.dedup_key).toMatch(/^llm_score\|user_feedback\|\d+$/);
    // Another score while still under: the timer checks again, and the window's dedup key keeps it one notification.
    await feedback(false, 4);
    await expect.poll(async () => (await api('GET', '/scores/summary?name=user_feedback')).body.names[0]?.count, { timeout: 30_000 }).toBe(5);
    expect((await api('GET', '/alert-notifications?limit=100')).body.notifications).toHaveLength(1);
    expect(hooks.received('/score')).toHaveLength(1);
  });
});
