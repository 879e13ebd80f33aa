// Validates what the SDK sends against the receiver's own request schemas
// (@devtrail/contract, the workspace package services/receiver validates
// with). Not a substitute for the end-to-end test against the real pipeline
// (integration-real-pipeline.test.ts), but it catches wire-shape drift between
// the SDK and the receiver in-process, without the local stack.
import { PROMPT_READ_PATH as RECEIVER_PROMPT_PATH } from '@devtrail/kinds';
import { PROMPT_READ_PATH } from '../src/prompts/prompt.js';
import {
  BATCH_PATH,
  batchSchema,
  EVENT_KINDS,
  KINDS,
  MAX_BATCH_SECTION,
  MAX_BREADCRUMBS,
  MAX_ID_LENGTH,
  MAX_RELEASE_LENGTH,
  MAX_SCORE_COMMENT,
  MAX_SCORE_ID,
  MAX_SCORE_LABEL,
  MAX_SCORE_NAME,
} from '@devtrail/kinds';
import { INGEST_BODY_LIMIT_DEFAULT } from '@devtrail/config';
import { describe, expect, it } from 'vitest';
import '../src/node.js';
import { createSpanExporter } from '../src/otel/span-exporter.js';
import { bodiesAt, makeClient } from './helpers/client.js';

import * as limits from '../src/limits.js';
import { SECTIONS } from '../src/transport/transport.js';
import { unbatch } from './helpers/unbatch.js';

const SCHEMAS = Object.fromEntries(EVENT_KINDS.map((k) => [KINDS[k].path, KINDS[k].request]));

function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

describe('SDK payloads against the receiver schemas (@devtrail/contract)', () => {
  it("names each kind's batch section and the receiver's limits as the contract does (the SDK keeps a copy: it is published without dependencies)", () => {
    expect(SECTIONS).toEqual(Object.fromEntries(EVENT_KINDS.map((k) => [k, KINDS[k].name])));
    expect({ ...limits }).toEqual({
      BATCH_PATH,
      MAX_BATCH_SECTION,
      MAX_RELEASE_LENGTH,
      MAX_ID_LENGTH,
      MAX_BREADCRUMBS,
      MAX_BODY_BYTES: INGEST_BODY_LIMIT_DEFAULT,
      MAX_SCORE_NAME,
      MAX_SCORE_LABEL,
      MAX_SCORE_COMMENT,
      MAX_SCORE_ID,
    });
    expect(PROMPT_READ_PATH).toBe(RECEIVER_PROMPT_PATH);
  });

  it('every body the SDK produces, including awkward inputs, passes validation', async () => {
    const { client, calls } = makeClient({ release: 'r'.repeat(300), tags: { region: 'eu' }, autoSessionTracking: true });
    const loop: any = {};
    loop.loop = loop;
    client.addBreadcrumb({ type: 'ui', message: 'click', timestamp: new Date() });
    client.setUser({ id: 7 });
    await client.startSpan('outer', async () => {
      client.logger.debug('debug', { deep: deep(60), loop, big: 1n });
      client.child('db').warn('slow', new Error('timeout'));
      client.logger.error('');
      client.llmUsage({ model: 'm', provider: 'p', operation: 'embedding', inputTokens: -4, outputTokens: 2.7, latencyMs: 10.2, costUsd: -1 });
      client.captureError(undefined);
      client.captureError({ weird: 'object' }, { severity: 'nope' as never, breadcrumbs: [{ type: '', message: '' }] });
      client.captureError(new Error('', { cause: 'string cause' }), { context: deep(60) });
      await client
        .startSpan('failing', async () => {
          throw new Error('x');
        })
        .catch(() => {});
    });
    client.startManualSpan('manual').end({ endTime: 0 }); // end before start -> clamped to 0
    await client.startSpan('scored', async () => client.score({ name: 'n'.repeat(300), value: 0.5, label: 'l'.repeat(300), comment: 'c'.repeat(3000) }));
    client.score({ name: 'tone', value: 'x'.repeat(500), callId: 'i'.repeat(500), spanId: 'orphan', id: 'k'.repeat(500) });
    client.score({ name: 'nan', value: Number.NaN, callId: 'c' }); // not sent
    client.score({ name: 'two', value: 2, dataType: 'boolean', callId: 'c' }); // not sent
    client.score({ name: 'nowhere', value: 1 }); // nothing to score outside a trace: not sent
    client.userFeedback({ positive: false, comment: 'wrong', sessionId: 'chat-7' });
    client.metric({ metric: 'queue.depth', type: 'gauge', value: 3, attributes: { queue: 'mail', nested: deep(60) } });
    client.metric({ metric: 'orders', type: 'sum', value: 2, unit: '{order}', time: new Date(), startTime: new Date(Date.now() - 1000) });
    createSpanExporter(client).export(
      [
        {
          name: 'otel',
          spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) }),
          startTime: [1, 0],
          endTime: [0, 0],
          attributes: { nested: deep(60) },
        },
      ],
      () => {},
    );
    await client.flush();

    expect(new Set(calls.map((c) => c.path))).toEqual(new Set([BATCH_PATH]));
    for (const call of calls) {
      const batch = batchSchema.safeParse(call.body);
      expect(batch.success ? 'valid' : JSON.stringify(batch.error.issues)).toBe('valid');
    }
    // Every record is one its kind's own route takes (the batch route checks each the same way).
    const sent = calls.map((c) => c.body);
    for (const path of Object.keys(SCHEMAS)) {
      const bodies = unbatch(sent, path);
      expect(bodies.length, path).toBeGreaterThan(0);
      for (const body of bodies) {
        const result = SCHEMAS[path as keyof typeof SCHEMAS].safeParse(body);
        expect(result.success ? 'valid' : JSON.stringify(result.error.issues), path).toBe('valid');
      }
    }
    expect(bodiesAt(calls, '/ingest/traces').map((s) => s.duration_ms)).toContain(0);
    // Three scores sent: the one in a span on its trace, the cut one, the feedback; the others not.
    expect(unbatch(sent, '/ingest/scores').map((s: any) => [s.name.length, s.value, Boolean(s.trace_id), s.span_id])).toEqual([
      [MAX_SCORE_NAME, 0.5, true, undefined],
      [4, 'x'.repeat(MAX_SCORE_LABEL), false, undefined],
      ['user_feedback'.length, false, false, undefined],
    ]);
  });
});
