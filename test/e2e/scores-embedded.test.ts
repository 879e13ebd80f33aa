import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded-process.ts';
import { emitEvaluatedCall, type Evaluated } from '../support/otel-evaluation.ts';

// Scores end to end in the embedded mode (`npm start`): an evaluator's OTLP verdict on a
// GenAI call, scores sent to /ingest/scores (one corrected by its id), an operator's
// annotation; read beside the calls, per session and per name, over time, as a filter and a
// sort (docs/api.md, "Scores").
let e: EmbeddedProcess;
let call: Evaluated;
beforeAll(async () => {
  e = await startEmbeddedProcess();
}, 120_000);
afterAll(async () => e?.close());

const ingest = async (body: unknown) =>
  fetch(`${e.url}/ingest/scores`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e.project.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const api = async (path: string, body?: unknown) => {
  const r = await fetch(`${e.url}/api/projects/${e.project.id}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${e.operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: (await r.json()) as any };
};
const calls = async (query = '') => (await api(`/llm-calls?${query}`)).body.calls as Array<{ event_id: string; scores: any[]; metadata: Record<string, unknown> }>;

describe('scores in the embedded process', () => {
  it('takes an OTLP evaluation event as a score on its call, with its session and user', { timeout: 60_000 }, async () => {
    call = await emitEvaluatedCall(e.url, e.project.key, { session: 'sess-1', user: 'alice', name: 'relevance', value: 0.9, label: 'pass', explanation: 'on topic' });
    await expect.poll(async () => (await calls())[0]?.scores.length ?? 0, { timeout: 30_000, interval: 200 }).toBe(1);
    const [c] = await calls();
    expect(c.metadata.span_id).toBe(call.spanId);
    expect(c.scores[0]).toMatchObject({ name: 'relevance', value: 0.9, label: 'pass', comment: 'on topic', source: 'eval', on: 'call', data_type: 'numeric' });
  });

  it('takes scores at /ingest/scores, replaces one sent again with its id, and refuses what it cannot store', { timeout: 60_000 }, async () => {
    const [c] = await calls();
    const sent = [
      { id: 'fb-1', name: 'user_feedback', value: false, comment: 'wrong answer', call_id: c.event_id },
      { name: 'helpfulness', value: 0.2, trace_id: call.traceId },
      { name: 'tone', value: 'friendly', session_id: 'sess-1' },
    ];
    for (const b of sent) expect((await ingest(b)).status).toBe(200);
    // The user changed their mind: the same id, now true.
    expect((await ingest({ id: 'fb-1', name: 'user_feedback', value: true, comment: 'fine after all', call_id: c.event_id })).status).toBe(200);
    for (const bad of [
      { name: 'x', value: 1 },
      { name: 'x', value: 1, call_id: 'c', comment: 'y'.repeat(2001) },
      { name: 'x', value: '1e999', data_type: 'numeric', call_id: 'c' },
      { name: 'x', value: 2, data_type: 'boolean', call_id: 'c' },
      { name: 'x', value: 1, call_id: 'c', source: 'annotation' },
      { name: '', value: 1, call_id: 'c' },
    ])
      expect((await ingest(bad)).status, JSON.stringify(bad).slice(0, 80)).toBe(400);
    await expect
      .poll(async () => (await calls())[0].scores.map((s) => `${s.name}=${s.label || s.value}`).sort(), { timeout: 30_000, interval: 200 })
      .toEqual(['helpfulness=0.2', 'relevance=pass', 'user_feedback=true']);
  });

  it('takes an annotation from the dashboard with its author, and shows every score per name, session and bucket', { timeout: 60_000 }, async () => {
    const [c] = await calls();
    const r = await api('/scores', { name: 'correctness', value: 1, comment: 'checked by hand', call_id: c.event_id });
    expect(r.status).toBe(200);
    expect((await api('/scores', { name: 'correctness', value: 1 })).status).toBe(400);
    await expect
      .poll(async () => (await calls())[0].scores.find((s) => s.name === 'correctness'), { timeout: 30_000, interval: 200 })
      .toMatchObject({
        source: 'annotation',
        author: 'operator',
        comment: 'checked by hand',
      });
    const summary = (await api('/scores/summary')).body.names as any[];
    expect(Object.fromEntries(summary.map((s) => [s.name, [s.count, s.average, s.distribution.map((d: any) => `${d.value}:${d.count}`).join(',')]]))).toEqual({
      relevance: [1, 0.9, ''],
      user_feedback: [1, 1, 'true:1'],
      helpfulness: [1, 0.2, ''],
      tone: [1, null, 'friendly:1'],
      correctness: [1, 1, ''],
    });
    const series = (await api('/scores/series?buckets=4')).body;
    const feedback = series.series.find((s: any) => s.name === 'user_feedback');
    expect(feedback.average.filter((v: number | null) => v !== null)).toEqual([1]);
    const [session] = (await api('/llm-sessions')).body.sessions;
    expect(session.session).toBe('sess-1');
    expect(Object.fromEntries(session.scores.map((s: any) => [s.name, s.average]))).toEqual({
      relevance: 0.9,
      user_feedback: 1,
      helpfulness: 0.2,
      tone: null,
      correctness: 1,
    });
  });

  it('filters and sorts calls by a score', { timeout: 60_000 }, async () => {
    const r = await fetch(`${e.url}/ingest/llm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e.project.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', provider: 'p', operation: 'chat', input_tokens: 1, output_tokens: 1, latency_ms: 1, metadata: { trace_id: 'other-trace' } }),
    });
    expect(r.status).toBe(200);
    expect((await ingest({ name: 'helpfulness', value: 0.7, trace_id: 'other-trace' })).status).toBe(200);
    await expect
      .poll(async () => (await calls('sort=score&sort_score=helpfulness')).map((c) => c.scores.find((s) => s.name === 'helpfulness')?.value), {
        timeout: 30_000,
        interval: 200,
      })
      .toEqual([0.7, 0.2]);
    expect((await calls('sort=score&sort_score=helpfulness&order=asc')).map((c) => c.scores.find((s) => s.name === 'helpfulness')?.value)).toEqual([0.2, 0.7]);
    expect((await calls(`score=${encodeURIComponent('helpfulness>=0.5')}`)).map((c) => c.metadata.trace_id)).toEqual(['other-trace']);
    expect((await calls(`score=${encodeURIComponent('user_feedback=true')}`)).map((c) => c.metadata.trace_id)).toEqual([call.traceId]);
    expect((await api('/llm-calls?sort=score')).status).toBe(400);
    expect((await api('/llm-calls?score=nonsense')).status).toBe(400);
  });
});
