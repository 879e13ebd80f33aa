import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TARGETS, type IngestTarget, type TargetMode } from '../support/ingest-targets.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';

// A retry with the same Idempotency-Key stores nothing new, whatever the key looks like: the
// same body sent three times under a Stripe-style string, a UUIDv4 and a ULID, with no
// timestamps (so the receiver picks "now" each time), reads back once in every kind, in both
// modes: one log per entry, one error (its group counting one), one span, one LLM call with
// its sums counted once.
const up = await stackUp();
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulid = () => {
  const time = Date.now().toString(32).toUpperCase().padStart(10, '0'); // a time prefix, as a ULID has
  const rand = Array.from(randomBytes(16), (b) => CROCKFORD[b % 32]).join('');
  return `${time}${rand}`.slice(0, 26).replace(/[ILOU]/g, 'X');
};
const KEYS: Record<string, () => string> = {
  stripe: () => `plain-${randomBytes(3).toString('hex')}`,
  uuidv4: () => randomUUID(),
  ulid,
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const mode of ['distributed', 'embedded'] as TargetMode[]) {
  describe.skipIf(!up && mode === 'distributed')(
    `${mode}: a retried request under any Idempotency-Key is stored once${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`,
    () => {
      let t: IngestTarget;
      beforeAll(async () => {
        t = await TARGETS[mode]();
      }, 180_000);
      afterAll(async () => t?.close());

      const post = async (path: string, body: unknown, key: string) => {
        const r = await fetch(`${t.ingestUrl()}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.project.key}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
        });
        expect(r.status, await r.clone().text()).toBe(200);
        return r.json();
      };
      /** The same request three times, a little apart: each copy would get another "now". */
      const thrice = async (path: string, body: unknown, key: string) => {
        let answer: any;
        for (let i = 0; i < 3; i++) {
          answer = await post(path, body, key);
          await sleep(15);
        }
        return answer;
      };

      it('stores one copy of each event for each kind of key', { timeout: 120_000 }, async () => {
        const sent: Array<{ style: string; marker: string; fingerprint: string; traceId: string }> = [];
        for (const [style, makeKey] of Object.entries(KEYS)) {
          const marker = `idem-${style}-${randomBytes(4).toString('hex')}`;
          const traceId = randomBytes(16).toString('hex');
          await thrice(
            '/ingest/logs',
            {
              service: marker,
              logs: [
                { level: 'info', message: `${marker} one` },
                { level: 'warn', message: `${marker} two` },
              ],
            },
            makeKey(),
          );
          const e = await thrice(
            '/ingest/errors',
            { service: marker, error_message: `boom ${marker}`, stack_trace: `Error: boom ${marker}\n    at f (/srv/${marker}.js:1:1)` },
            makeKey(),
          );
          await thrice(
            '/ingest/traces',
            { service: marker, trace_id: traceId, span_id: randomBytes(8).toString('hex'), operation: 'GET /x', start_time: new Date().toISOString(), duration_ms: 3 },
            makeKey(),
          );
          await thrice(
            '/ingest/llm',
            { service: marker, model: `m-${marker}`, provider: 'p', operation: 'chat', input_tokens: 100, output_tokens: 7, cost_usd: 0.5, latency_ms: 9 },
            makeKey(),
          );
          sent.push({ style, marker, fingerprint: e.fingerprint, traceId });
        }
        const from = new Date(Date.now() - 3600_000).toISOString();
        const read = async (path: string) => {
          const r = await t.read(`${path}${path.includes('?') ? '&' : '?'}from=${encodeURIComponent(from)}`);
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          return r.body;
        };
        const counts = async () => {
          const out: Record<string, unknown> = {};
          const llm = (await read('/llm-usage')).usage as Array<{ model: string; calls: number; input_tokens: number; output_tokens: number; cost_usd: number }>;
          const groups = (await read('/error-groups')).groups as Array<{ fingerprint: string; count: number }>;
          for (const s of sent) {
            const m = llm.filter((u) => u.model === `m-${s.marker}`);
            out[s.style] = {
              logs: (await read(`/logs?q=${encodeURIComponent(s.marker)}`)).logs.length,
              errors: (await read(`/errors?fingerprint=${s.fingerprint}`)).errors.length,
              group_count: groups.find((g) => g.fingerprint === s.fingerprint)?.count ?? 0,
              spans: (await t.read(`/traces/${s.traceId}`)).body.spans?.length ?? 0,
              llm: {
                calls: m.reduce((n, u) => n + u.calls, 0),
                input_tokens: m.reduce((n, u) => n + u.input_tokens, 0),
                output_tokens: m.reduce((n, u) => n + u.output_tokens, 0),
                cost_usd: m.reduce((n, u) => n + u.cost_usd, 0),
              },
            };
          }
          return out;
        };
        const once = { logs: 2, errors: 1, group_count: 1, spans: 1, llm: { calls: 1, input_tokens: 100, output_tokens: 7, cost_usd: 0.5 } };
        const expected = Object.fromEntries(sent.map((s) => [s.style, once]));
        // Visible within a few seconds, and still once after the consumers had time to write every copy.
        await expect.poll(counts, { timeout: 30_000, interval: 500 }).toEqual(expected);
        await sleep(3000);
        expect(await counts()).toEqual(expected);
      });
    },
  );
}
