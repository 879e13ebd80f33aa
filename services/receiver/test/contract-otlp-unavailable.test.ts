import { afterAll, beforeAll, expect, it } from 'vitest';
import { OTLP_TYPES } from '@devtrail/otlp';
import { receiverHarness, type Harness } from './harness.ts';
import { logsProtobuf, logsRequest } from '../../../libs/otlp/test/requests.ts';

// OTLP exporters back off on 503 + Retry-After: a message log that cannot take the
// records (here the in-process log at its capacity of one message) must answer that, never 200.
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness({ logCapacity: 1 });
});
afterAll(async () => h.close());

it('answers 503 with Retry-After and a protobuf Status when the log is full', async () => {
  const send = (messages: string[]) =>
    h.app.inject({
      method: 'POST',
      url: '/v1/logs',
      headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'application/x-protobuf' },
      payload: logsProtobuf(logsRequest(messages.map((m) => ({ body: { stringValue: m } })))),
    });
  // The first request's records fill the log (one message per request and kind).
  expect((await send(['a', 'b'])).statusCode).toBe(200);
  const res = await send(['c', 'd', 'e']);
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(OTLP_TYPES.status.toObject(OTLP_TYPES.status.decode(res.rawPayload))).toEqual({ code: 14, message: expect.stringContaining('temporarily unavailable') });
  expect((await h.produced('log')).map((e) => e.data.message)).toEqual(['a', 'b']);
});
