import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KINDS,
  llmToEvent,
  llmUsageSchema,
  readLlmCalls,
  readLlmSessions,
  readScores,
  readScoreSeries,
  readScoreSummary,
  readUserScores,
  scoresOfCalls,
  scoresOfSessions,
  scoreSchema,
  scoreToEvent,
} from '@devtrail/kinds';
import { newEnvelope, toRow } from '../../../test/support/envelopes.ts';
import { embeddedAdapters } from '../../../test/support/embedded-adapters.ts';

// The score reads' SQL on the engine (chdb here; the ClickHouse floor in the floor lane): calls
// and scores written as the sinks write them, a score corrected by its id, read back one by one,
// per name, per bucket, beside calls (own, by span, by trace), per session and per user, and as
// the calls' filter and sort (docs/api.md, "Scores").

let adapters: Awaited<ReturnType<typeof embeddedAdapters>>;
const project = 'score-reads-project';
const T = Date.now() - 3600_000;
const at = (s: number) => new Date(T + s * 1000).toISOString();
const range = { fromMs: T - 60_000, toMs: T + 600_000 };
const f = { projectId: project, retentionDays: 30 };
const ids: Record<string, string> = {};

async function call(name: string, s: number, metadata: Record<string, unknown>) {
  const env = newEnvelope('llm', project, at(s), {
    ...llmToEvent(llmUsageSchema.parse({ model: 'm', provider: 'p', operation: name, input_tokens: 1, output_tokens: 1, latency_ms: 1, metadata }), at(s)),
  });
  ids[name] = env.event_id;
  await adapters.columnStore.insert(KINDS.llm.name, [toRow(env)]);
}
async function score(body: Record<string, unknown>, receivedS: number) {
  const event = scoreToEvent(scoreSchema.parse({ timestamp: at(receivedS), ...body }), at(receivedS));
  await adapters.columnStore.insert(KINDS.score.name, [toRow(newEnvelope('score', project, at(receivedS), event))]);
}

beforeAll(async () => {
  adapters = await embeddedAdapters();
  // a and b in one session of alice's, each in its trace; c alone, in trace t3.
  await call('a', 0, { trace_id: 't1', span_id: 's1', 'session.id': 'chat', 'enduser.id': 'alice' });
  await call('b', 10, { trace_id: 't2', span_id: 's2', 'session.id': 'chat', 'enduser.id': 'alice' });
  await call('c', 20, { trace_id: 't3', span_id: 's3' });
  await score({ name: 'helpfulness', value: 0.9, trace_id: 't1', span_id: 's1', source: 'eval', label: 'pass' }, 30); // a, by its span
  await score({ name: 'helpfulness', value: 0.3, trace_id: 't2' }, 31); // b, by its trace
  await score({ name: 'helpfulness', value: 0.6, call_id: ids.c }, 32); // c, by its event id
  await score({ id: 'fb', name: 'user_feedback', value: false, call_id: ids.a, comment: 'wrong' }, 33);
  await score({ id: 'fb', name: 'user_feedback', value: true, call_id: ids.a, comment: 'fine after all' }, 34); // replaces it
  await score({ name: 'tone', value: 'rude', session_id: 'chat' }, 35);
  await score({ name: 'tone', value: 'kind', user_id: 'alice' }, 36);
  await score({ name: 'helpfulness', value: 0.1, trace_id: 'elsewhere' }, 37); // scores no call here
});
afterAll(async () => adapters?.close());

describe('score reads', () => {
  it('take each score once, as its latest version', async () => {
    const { scores } = await readScores(adapters.columnStore, { ...f, range });
    expect(scores).toHaveLength(7);
    expect(scores.filter((s) => s.id === 'fb').map((s) => [s.value, s.label, s.comment])).toEqual([[1, 'true', 'fine after all']]);
    expect((await readScores(adapters.columnStore, { ...f, range, name: 'tone' })).scores.map((s) => s.label)).toEqual(['kind', 'rude']);
  });

  it('sum up per name, and average per bucket', async () => {
    const summary = await readScoreSummary(adapters.columnStore, { ...f, range });
    expect(summary.map((s) => [s.name, s.data_type, s.count, s.average === null ? null : Math.round(s.average * 100) / 100, s.distribution])).toEqual([
      ['helpfulness', 'numeric', 4, 0.48, []], // a numeric score's label is not a value of its own
      [
        'tone',
        'categorical',
        2,
        null,
        [
          { value: 'kind', count: 1 },
          { value: 'rude', count: 1 },
        ],
      ],
      ['user_feedback', 'boolean', 1, 1, [{ value: 'true', count: 1 }]],
    ]);
    const series = await readScoreSeries(adapters.columnStore, { ...f }, { fromMs: T, toMs: T + 60_000, stepMs: 60_000, count: 1 });
    expect(series.map((s) => [s.name, s.count, s.average.map((v) => (v === null ? null : Math.round(v * 100) / 100))])).toEqual([
      ['helpfulness', [4], [0.48]],
      ['user_feedback', [1], [1]],
    ]);
  });

  it('go with calls: their own scores (by event id or span) and their trace’s', async () => {
    const { calls } = await readLlmCalls(adapters.columnStore, { ...f, range });
    const byCall = await scoresOfCalls(adapters.columnStore, f, calls);
    const names = (op: string) => byCall.get(ids[op])!.map((s) => `${s.name}=${s.label || s.value}@${s.on}`);
    expect(names('a')).toEqual(['helpfulness=pass@call', 'user_feedback=true@call']);
    expect(names('b')).toEqual(['helpfulness=0.3@trace']);
    expect(names('c')).toEqual(['helpfulness=0.6@call']);
  });

  it('filter and sort calls by a score', async () => {
    const ops = async (q: Partial<Parameters<typeof readLlmCalls>[1]>) => (await readLlmCalls(adapters.columnStore, { ...f, range, ...q })).calls.map((c) => c.operation);
    expect(await ops({ score: { name: 'helpfulness', op: '>=', value: '0.5' } })).toEqual(['c', 'a']);
    expect(await ops({ score: { name: 'user_feedback', op: '=', value: 'true' } })).toEqual(['a']);
    expect(await ops({ score: { name: 'helpfulness', op: '<', value: '0.5' } })).toEqual(['b']);
    expect(await ops({ sort: 'score', sortScore: 'helpfulness' })).toEqual(['a', 'c', 'b']);
    expect(await ops({ sort: 'score', sortScore: 'helpfulness', order: 'asc' })).toEqual(['b', 'c', 'a']);
    // The cursor keeps the score's order.
    const first = await readLlmCalls(adapters.columnStore, { ...f, range, sort: 'score', sortScore: 'helpfulness', limit: 2 });
    const rest = await readLlmCalls(adapters.columnStore, { ...f, range, sort: 'score', sortScore: 'helpfulness', limit: 2, cursor: first.nextCursor! });
    expect([...first.calls, ...rest.calls].map((c) => c.operation)).toEqual(['a', 'c', 'b']);
  });

  it('average per session and per user, each score once', async () => {
    const sessions = await readLlmSessions(adapters.columnStore, { ...f, range });
    const bySession = await scoresOfSessions(
      adapters.columnStore,
      { ...f, callRetentionDays: 30, range },
      sessions.map((s) => s.session),
    );
    expect(bySession.get('chat')).toEqual([
      { name: 'helpfulness', count: 2, average: 0.6 },
      { name: 'tone', count: 1, average: null },
      { name: 'user_feedback', count: 1, average: 1 },
    ]);
    expect(await readUserScores(adapters.columnStore, { ...f, callRetentionDays: 30, range, user: 'alice' })).toEqual([
      { name: 'helpfulness', count: 2, average: 0.6 },
      { name: 'tone', count: 2, average: null },
      { name: 'user_feedback', count: 1, average: 1 },
    ]);
    expect(await readUserScores(adapters.columnStore, { ...f, callRetentionDays: 30, range, user: 'nobody' })).toEqual([]);
  });
});
