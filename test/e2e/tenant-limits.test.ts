import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_TOO_LARGE } from '@devtrail/column-store';
import { stackUp } from '../support/stack.ts';
import { emitGenAi, type GenAiCall } from '../support/otel-genai.ts';
import { api, json, newTenant, rssMb, seedLogs, send, startTarget, storedLogs, type Mode, type Target, type Tenant } from './tenant-targets.ts';

// One project cannot hurt another, proved in the process a user runs (docs/security.md,
// "Bounds"): the bounds that are answers, not times, against `npm start` and against the
// distributed services on the local stack: every read past the rows limit refused, no
// conversation text kept when capture is off, tool arguments scrubbed by key, searches naming
// Object.prototype or a number past 2^53, one export at a time, a rule test that says refused
// only. The latency attacks are tenant-attacks.test.ts.

const MODES: Mode[] = ['embedded', ...((await stackUp()) ? (['distributed'] as const) : [])];
/** Rows the read-limits target lets a read scan. */
const ROWS_LIMIT = 300;
/**
 * These bounds are answers, not times: the read-time limit (500 ms in both targets by default) is
 * raised, so a read a loaded machine slows is not a 503 here; tenant-attacks.test.ts holds the time.
 */
const ANSWERS_NOT_TIMES = { READ_MAX_EXECUTION_MS: '30000' };
/** The bulk tenant's logs: past an export's most (100,000), so three exports at once would each be full. */
const BULK_LOGS = 101_000;

describe.each(MODES)('%s: one project cannot hurt another in the running process', (mode) => {
  describe(`read limits (READ_MAX_ROWS_TO_READ=${ROWS_LIMIT})`, () => {
    let t: Target;
    let r: Tenant;
    let fingerprint: string;
    beforeAll(async () => {
      t = await startTarget(mode, { READ_MAX_ROWS_TO_READ: String(ROWS_LIMIT), ...ANSWERS_NOT_TIMES });
      r = await newTenant(t, 'reads');
      await seedLogs(t, r, 1200);
      const error = { error_message: 'Cannot read id', stack_trace: 'TypeError: Cannot read id\n    at f (app.js:1:1)', context: { route: '/x' } };
      const one = await fetch(`${t.ingestUrl}/ingest/errors`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ service: 'api', ...error }),
      });
      fingerprint = (await json(one)).fingerprint;
      const llm = { model: 'gpt-4o-mini', provider: 'openai', operation: 'chat', input_tokens: 10, output_tokens: 5, latency_ms: 100 };
      expect(await send(t, r, '/ingest/batch', { service: 'api', errors: Array(400).fill(error), llm: Array(400).fill(llm) })).toBe(200);
    }, 180_000);
    afterAll(() => t?.close());

    it('every read that scans past the rows limit answers the documented 400, the chart reads included', async () => {
      const p = `/api/projects/${r.id}`;
      const reads = [
        `${p}/logs?q=row&limit=5`,
        `${p}/logs?limit=1000`,
        `${p}/logs/volume`,
        `${p}/logs/facets`,
        `${p}/logs/export?q=row`,
        `${p}/errors`,
        `${p}/error-groups`,
        `${p}/error-activity?fingerprints=${fingerprint}`,
        `${p}/error-services`,
        `${p}/llm-usage`,
        `${p}/llm-breakdown`,
        `${p}/llm-calls`,
      ];
      for (const path of reads) {
        // Until the consumers have written the rows: then the read scans past the limit.
        await expect.poll(async () => (await api(t, path)).status, { timeout: 30_000, interval: 200, message: path }).toBe(400);
        const body = await json(await api(t, path));
        expect(body.error.issues[0].message, path).toBe(READ_TOO_LARGE);
      }
    }, 240_000);
  });

  describe('answers', () => {
    let t: Target;
    let bulk: Tenant;
    beforeAll(async () => {
      t = await startTarget(mode, ANSWERS_NOT_TIMES);
      bulk = await newTenant(t, 'bulk');
      await seedLogs(t, bulk, BULK_LOGS);
    }, 600_000);
    afterAll(() => t?.close());

    it('content capture off: no conversation text in any read, whatever its spelling', async () => {
      const quiet = await newTenant(t, 'no-content');
      const off = await api(t, `/api/admin/projects/${quiet.id}/llm`, {
        method: 'PUT',
        body: JSON.stringify({ llm: { capture_content: false, metadata_attributes: ['traceloop.entity.input'] } }),
      });
      expect(off.status, await off.clone().text()).toBe(200);
      const marker = `secret-words-${randomBytes(4).toString('hex')}`;
      const usage = {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.usage.output_tokens': 5,
      };
      const calls: GenAiCall[] = [
        {
          name: 'chat spellings',
          attributes: {
            ...usage,
            'gen_ai.prompt': `a prompt ${marker}`,
            'gen_ai.completion': `a completion ${marker}`,
            'gen_ai.prompt.0.role': 'user',
            'gen_ai.prompt.0.content': `an indexed prompt ${marker}`,
            'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `current ${marker}` }] }]),
            'traceloop.entity.input': `traceloop input ${marker}`,
            'traceloop.entity.output': `traceloop output ${marker}`,
            'llm.prompts': `llm prompts ${marker}`,
            'input.value': `openinference ${marker}`,
            'ai.prompt': `vercel ${marker}`,
          },
          events: [
            { name: 'gen_ai.user.message', attributes: { content: `an event ${marker}` } },
            { name: 'gen_ai.choice', attributes: { index: 0, message: JSON.stringify({ role: 'assistant', content: `a choice ${marker}` }) } },
          ],
        },
      ];
      expect(await emitGenAi('assistant', t.ingestUrl, quiet.key, calls)).toEqual([0]);
      const native = {
        service: 'assistant',
        model: 'gpt-4o-mini',
        provider: 'openai',
        operation: 'chat',
        input_tokens: 1,
        output_tokens: 1,
        latency_ms: 1,
        metadata: { 'traceloop.entity.input': `native ${marker}`, feature: 'kept' },
        input: `native input ${marker}`,
        output: `native output ${marker}`,
      };
      expect(await send(t, quiet, '/ingest/llm', native)).toBe(200);
      const p = `/api/projects/${quiet.id}`;
      await expect.poll(async () => (await json(await api(t, `${p}/llm-calls`))).calls?.length, { timeout: 30_000 }).toBe(2);
      await expect.poll(async () => (await json(await api(t, `${p}/traces`))).traces?.length, { timeout: 30_000 }).toBe(1);
      const traceId = (await json(await api(t, `${p}/traces`))).traces[0].trace_id;
      const answers: Record<string, string> = {};
      for (const path of [
        `/traces/${traceId}`,
        '/traces',
        '/spans',
        '/llm-calls',
        '/llm-usage',
        '/llm-sessions',
        '/llm-calls/by-metadata?key=feature',
        `/llm-calls?q=${marker}`,
        `/traces?q=${marker}`,
      ]) {
        const r = await api(t, `${p}${path}`);
        answers[path] = `${r.status} ${await r.text()}`;
      }
      for (const [path, text] of Object.entries(answers)) {
        expect(text.slice(0, 3), path).toBe('200');
        expect(text, path).not.toContain(marker);
      }
      // The rest of the call stays: the model, the tokens, the attribute that is not a conversation.
      const [span] = (await json(await api(t, `${p}/traces/${traceId}`))).spans;
      expect(span.metadata['gen_ai.request.model']).toBe('gpt-4o-mini');
      expect(answers['/llm-calls']).toContain('"feature":"kept"');
    }, 120_000);

    it('tool arguments and results given as JSON text: scrubbed by key, no password readable', async () => {
      const tools = await newTenant(t, 'tools');
      const secret = `hunter2-${randomBytes(4).toString('hex')}`;
      const args = JSON.stringify({ user: 'ann', password: secret, token: `tok-${secret}` });
      expect(
        await send(t, tools, '/ingest/llm', {
          service: 'agent',
          model: 'gpt-4o-mini',
          provider: 'openai',
          operation: 'chat',
          input_tokens: 1,
          output_tokens: 1,
          latency_ms: 1,
          input: [
            { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'login', arguments: args } }] },
            { role: 'tool', tool_call_id: 'c1', content: JSON.stringify({ ok: true, password: secret }) },
          ],
        }),
      ).toBe(200);
      const usage = {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.usage.input_tokens': 1,
        'gen_ai.usage.output_tokens': 1,
      };
      const indexed: GenAiCall = {
        name: 'chat tools',
        attributes: {
          ...usage,
          'gen_ai.prompt.0.role': 'assistant',
          'gen_ai.prompt.0.tool_calls.0.id': 'c2',
          'gen_ai.prompt.0.tool_calls.0.name': 'login',
          'gen_ai.prompt.0.tool_calls.0.arguments': args,
        },
      };
      expect(await emitGenAi('agent', t.ingestUrl, tools.key, [indexed])).toEqual([0]);
      const p = `/api/projects/${tools.id}`;
      await expect.poll(async () => (await json(await api(t, `${p}/llm-calls`))).calls?.length, { timeout: 30_000 }).toBe(2);
      await expect.poll(async () => (await json(await api(t, `${p}/traces`))).traces?.length, { timeout: 30_000 }).toBe(1);
      const traceId = (await json(await api(t, `${p}/traces`))).traces[0].trace_id;
      const calls = await (await api(t, `${p}/llm-calls`)).text();
      const trace = await (await api(t, `${p}/traces/${traceId}`)).text();
      for (const text of [calls, trace]) {
        expect(text).not.toContain(secret);
        expect(text).toContain('"password":"[Filtered]"');
      }
      // Parsed, the rest of the arguments readable as data.
      expect(calls).toContain('"user":"ann"');
    }, 120_000);

    it('smaller bounds: searches that name Object.prototype or a number past 2^53, exports one at a time, a rule test that says refused only', async () => {
      const p = `/api/projects/${bulk.id}`;
      for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        for (const path of [`/error-groups?q=${name}:x`, `/logs?limit=1&q=${name}:x`, `/llm-calls?q=${name}:x`, `/traces?q=${name}:x`])
          expect((await api(t, `${p}${path}`)).status, `${path}`).toBe(200);
      }
      const big = encodeURIComponent('metadata.id:12345678901234567890');
      expect((await api(t, `${p}/logs?limit=1&q=${big}`)).status).toBe(200);
      const exported = await api(t, `${p}/logs/export?format=ndjson&q=${big}`);
      expect(exported.status).toBe(200);
      expect(await exported.text()).toBe('');
      expect((await api(t, `${p}/logs?limit=1`)).status).toBe(200); // and every read after it
      const compared = await api(t, `${p}/logs?limit=1&q=${encodeURIComponent('metadata.id:>12345678901234567890')}`);
      expect(compared.status).toBe(400);
      expect(JSON.stringify(await json(compared))).toContain('compares numbers up to 2^53 (9007199254740991) exactly');

      // Three exports of 100,000 logs at once: one runs, the others are told to wait. Every bulk log
      // is readable first (the consumers caught up).
      await expect.poll(() => storedLogs(t, bulk), { timeout: 240_000, interval: 1000 }).toBe(BULK_LOGS);
      const base = rssMb(t.reader.pid);
      let peak = base;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(t.reader.pid));
      }, 50);
      const exports = await Promise.all(
        [0, 1, 2].map(async () => {
          const r = await api(t, `${p}/logs/export?format=csv`);
          const text = await r.text();
          return { status: r.status, lines: text.split('\r\n').length - 2 };
        }),
      );
      clearInterval(sampler);
      console.log(`${mode}: three exports at once: ${JSON.stringify(exports)}; the reader's RSS +${(peak - base).toFixed(0)} MB`);
      expect(exports.map((e) => e.status).sort()).toEqual([200, 429, 429]);
      expect(exports.find((e) => e.status === 200)!.lines).toBe(100_000); // an export's most
      expect(peak - base).toBeLessThan(200);
      expect((await api(t, `${p}/logs/export?format=csv&limit=10`)).status).toBe(200); // the slot is free again

      // A rule test to a name on this host: refused, and nothing of what the name resolved to.
      const rule = await json(
        await api(t, `${p}/alert-rules`, {
          method: 'POST',
          body: JSON.stringify({ name: 'probe', type: 'new_group', destinations: [{ type: 'webhook', url: 'http://localhost:9/hook' }] }),
        }),
      );
      const tested = await api(t, `${p}/alert-rules/${rule.rule.id}/test`, { method: 'POST' });
      const text = await tested.text();
      expect(tested.status, text).toBe(200);
      expect(text).toContain('refused: localhost is not a public address (ALERT_WEBHOOK_PRIVATE_ADDRESSES=deny)');
      expect(text).not.toMatch(/127\.0\.0\.1|::1/);
    }, 300_000);
  });
});
