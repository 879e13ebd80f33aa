import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '@devtrail/kinds';
import { PROMPT_LIMITS } from '@devtrail/relational-store';
import { authApp, Browser, type AuthApp } from './support/inject-browser.ts';

// The prompt registry's API through its front door (inject) over the embedded adapters (PGlite,
// chdb): versions and labels, every bound's answer, who may write, and a version's comparison,
// whose figures equal the sums of the calls' own (docs/api.md, "Prompts").

let t: AuthApp;
let owner: Browser;
let projectId: string;
let base: string;
beforeAll(async () => {
  t = await authApp();
  owner = new Browser(t.app);
  expect((await owner.setup('owner', 'owner-password', t.ui.setupCode!.code)).statusCode).toBe(201);
  projectId = (await owner.call('POST', '/api/admin/projects', { name: 'prompts' })).json().project.id;
  base = `/api/projects/${projectId}/prompts`;
});
afterAll(async () => t?.close());

const post = (body: Record<string, unknown>) => owner.call('POST', base, body);

describe('prompt registry API', () => {
  it('creates a prompt, adds versions with labels, moves and removes a label', async () => {
    const first = await post({ name: 'support', prompt: 'Answer {{question}}', config: { model: 'gpt-4o' }, labels: ['production'], commit_message: 'first' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      created: true,
      version: {
        name: 'support',
        version: 1,
        type: 'text',
        prompt: 'Answer {{question}}',
        config: { model: 'gpt-4o' },
        labels: ['latest', 'production'],
        created_by: 'owner',
      },
    });
    expect((await post({ name: 'support', prompt: 'Answer briefly: {{question}}', labels: ['staging'] })).json()).toMatchObject({
      created: false,
      version: { version: 2 },
    });
    expect((await owner.call('GET', base)).json().prompts).toEqual([
      expect.objectContaining({ name: 'support', type: 'text', latest_version: 2, labels: { latest: 2, production: 1, staging: 2 } }),
    ]);
    const one = (await owner.call('GET', `${base}/support`)).json().prompt;
    expect(one.versions.map((v: { version: number; labels: string[] }) => [v.version, v.labels])).toEqual([
      [2, ['latest', 'staging']],
      [1, ['production']],
    ]);
    const moved = await owner.call('PUT', `${base}/support/labels/production`, { version: 2 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().version.labels).toEqual(['latest', 'production', 'staging']);
    expect((await owner.call('GET', `${base}/support/versions/1`)).json().version).toMatchObject({ commit_message: 'first', labels: [] });
    expect((await owner.call('DELETE', `${base}/support/labels/staging`)).statusCode).toBe(204);
    expect((await owner.call('DELETE', `${base}/support/labels/staging`)).statusCode).toBe(404);
  });

  it('keeps chat prompts, and answers every bound with its status', async () => {
    const chat = await post({ name: 'chat', prompt: [{ role: 'system', content: 'You are {{persona}}' }] });
    expect(chat.statusCode, chat.body).toBe(201);
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ name: 'bad name!', prompt: 'x' }, 400],
      [{ name: 'x'.repeat(101), prompt: 'x' }, 400],
      [{ name: 'ok', prompt: [{ role: 'user' }] }, 400],
      [{ name: 'ok', type: 'text', prompt: 'x' }, 400], // the type follows from the prompt's shape
      [{ name: 'ok', prompt: 'x', labels: ['latest'] }, 400],
      [{ name: 'ok', prompt: 'x', labels: ['Upper'] }, 400],
      [{ name: 'ok', prompt: 'nul \u0000 inside' }, 400],
      [{ name: 'ok', prompt: 'x', config: { half: '\ud800' } }, 400],
      [{ name: 'ok', prompt: 'x'.repeat(PROMPT_LIMITS.MAX_CONTENT_CHARS) }, 413],
      [{ name: 'ok', prompt: 'x', config: { blob: 'y'.repeat(PROMPT_LIMITS.MAX_CONFIG_CHARS) } }, 413],
      [{ name: 'chat', prompt: 'a text now' }, 409],
    ];
    for (const [body, status] of cases) {
      const r = await post(body);
      expect([JSON.stringify(body).slice(0, 60), r.statusCode]).toEqual([JSON.stringify(body).slice(0, 60), status]);
      if (status === 400) expect(r.json()).toMatchObject({ success: false, error: { name: 'ZodError' } });
      else expect(r.json().error).toEqual(expect.any(String));
    }
    expect((await owner.call('PUT', `${base}/chat/labels/latest`, { version: 1 })).statusCode).toBe(400);
    expect((await owner.call('PUT', `${base}/chat/labels/production`, { version: 7 })).statusCode).toBe(404);
    expect((await owner.call('GET', `${base}/nope`)).statusCode).toBe(404);
    expect((await owner.call('GET', `${base}/chat/versions/9`)).statusCode).toBe(404);
    // Labels per prompt: the 21st is a 409.
    const labels = Array.from({ length: PROMPT_LIMITS.MAX_LABELS_PER_PROMPT }, (_, i) => `l${i}`);
    expect((await post({ name: 'labelled', prompt: 'x', labels })).statusCode).toBe(201);
    expect((await owner.call('PUT', `${base}/labelled/labels/one-more`, { version: 1 })).statusCode).toBe(409);
  });

  it('lets members write and viewers read; other projects are a 404', async () => {
    for (const [username, role] of [
      ['mia', 'member'],
      ['val', 'viewer'],
    ] as const) {
      expect((await owner.call('POST', '/auth/users', { username, password: `${username}-password-1`, role })).statusCode).toBe(201);
      expect((await owner.call('POST', `/auth/projects/${projectId}/members`, { username })).statusCode).toBe(201);
    }
    const mia = new Browser(t.app, '10.9.0.1');
    const val = new Browser(t.app, '10.9.0.2');
    expect((await mia.login('mia', 'mia-password-1')).statusCode).toBe(200);
    expect((await val.login('val', 'val-password-1')).statusCode).toBe(200);
    expect((await mia.call('POST', base, { name: 'by-mia', prompt: 'hi' })).json().version.created_by).toBe('mia');
    expect((await val.call('GET', `${base}/by-mia`)).statusCode).toBe(200);
    expect((await val.call('POST', base, { name: 'by-val', prompt: 'hi' })).statusCode).toBe(403);
    expect((await val.call('PUT', `${base}/by-mia/labels/production`, { version: 1 })).statusCode).toBe(403);
    const other = (await owner.call('POST', '/api/admin/projects', { name: 'elsewhere' })).json().project.id;
    expect((await mia.call('GET', `/api/projects/${other}/prompts`)).statusCode).toBe(404);
    expect((await owner.call('GET', `/api/projects/${other}/prompts/by-mia`)).statusCode).toBe(404);
  });

  it("compares a version with the previous one: the figures are the sums of the calls' own", async () => {
    await post({ name: 'cmp', prompt: 'v1' });
    await post({ name: 'cmp', prompt: 'v2' });
    const now = Date.now() - 60_000;
    const call = (i: number, metadata: Record<string, unknown>, cost: number) => ({
      project_id: projectId,
      event_id: randomUUID(),
      received_at: new Date(now).toISOString(),
      data: {
        service: 'app',
        environment: 'production',
        release: '',
        timestamp: new Date(now + i).toISOString(),
        model: 'gpt-4o',
        provider: 'openai',
        operation: 'chat',
        input_tokens: 100 * (i + 1),
        output_tokens: 10 * (i + 1),
        cost_usd: cost,
        latency_ms: 100 * (i + 1),
        metadata,
      } as never,
    });
    const rows = [
      call(0, { 'prompt.name': 'cmp', 'prompt.version': 1 }, 0.01),
      call(1, { 'prompt.name': 'cmp', 'prompt.version': 2 }, 0.02),
      call(2, { 'langfuse.observation.prompt.name': 'cmp', 'langfuse.observation.prompt.version': 2 }, 0), // estimated from the price table
      call(3, { 'prompt.name': 'cmp', 'prompt.version': '2' }, 0.04),
      call(4, { 'prompt.name': 'other', 'prompt.version': 2 }, 1),
    ];
    await t.adapters.columnStore.insert(
      KINDS.llm.name,
      rows.map((r) => KINDS.llm.toRow(r, 30)),
    );
    // Scores of those calls: v2's two, v1's one; the other prompt's is not theirs.
    const score = (callId: string, value: number) =>
      KINDS.score.toRow(
        {
          project_id: projectId,
          event_id: randomUUID(),
          received_at: new Date(now).toISOString(),
          data: {
            service: 'app',
            environment: 'production',
            release: '',
            timestamp: new Date(now).toISOString(),
            id: randomUUID(),
            name: 'helpfulness',
            value,
            data_type: 'numeric',
            label: '',
            comment: '',
            source: 'api',
            author: '',
            call_id: callId,
            trace_id: '',
            span_id: '',
            session_id: '',
            user_id: '',
          } as never,
        },
        30,
      );
    await t.adapters.columnStore.insert(KINDS.score.name, [
      score(rows[1].event_id, 1),
      score(rows[3].event_id, 0.5),
      score(rows[0].event_id, 0.2),
      score(rows[4].event_id, 0),
    ]);
    const range = `from=${now - 3600_000}&to=${now + 3600_000}`;
    const r = await owner.call('GET', `${base}/cmp/versions/2/comparison?${range}`);
    expect(r.statusCode, r.body).toBe(200);
    const { version, previous } = r.json();
    const sums = async (metadata: string) => {
      const calls = (await owner.call('GET', `/api/projects/${projectId}/llm-calls?${range}&metadata=${encodeURIComponent(metadata)}`)).json().calls as Array<{
        cost_usd: number;
        input_tokens: number;
        output_tokens: number;
      }>;
      return calls;
    };
    const v2 = [...(await sums('prompt.version:2')), ...(await sums('langfuse.observation.prompt.version:2'))];
    const own = (await sums('prompt.name:other')).length;
    expect(own).toBe(1);
    const mine = v2.filter((c) => c.cost_usd !== 1);
    expect(version).toMatchObject({
      version: 2,
      calls: 3,
      input_tokens: mine.reduce((s, c) => s + c.input_tokens, 0),
      output_tokens: mine.reduce((s, c) => s + c.output_tokens, 0),
    });
    expect(version.cost_usd).toBeCloseTo(
      mine.reduce((s, c) => s + c.cost_usd, 0),
      10,
    );
    expect(version.estimated_cost_usd).toBeGreaterThan(0);
    expect(version.cost_per_call_usd).toBeCloseTo(version.cost_usd / 3, 10);
    expect([version.latency_p50_ms, version.latency_p95_ms]).toEqual([300, expect.any(Number)]);
    expect(previous).toMatchObject({ version: 1, calls: 1, cost_usd: 0.01, input_tokens: 100, latency_p50_ms: 100 });
    expect(version.scores).toEqual([{ name: 'helpfulness', count: 2, average: 0.75 }]);
    expect(previous.scores).toEqual([{ name: 'helpfulness', count: 1, average: 0.2 }]);
    expect((await owner.call('GET', `${base}/cmp/versions/1/comparison?${range}`)).json().previous).toBeNull();
  });
});
