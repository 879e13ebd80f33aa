import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  batchKey,
  DecodeError,
  decodeMessage,
  encodeAsSent,
  encodeBatch,
  eventIdsHeader,
  HEADERS,
  idsOfHeader,
  newEvents,
  sequentialIds,
  UnsupportedVersion,
} from '@devtrail/contract';
import { fastLogsToEvents, KINDS, kindOf } from '@devtrail/kinds';
import { runs, SEED } from '../../../test/support/property.ts';

// Message version 3 (as-sent.ts): a log request as it was sent, its facts in headers. A
// consumer must read from it exactly the events, and write exactly the rows, that the
// version-2 envelope of the same request would give (the receiver writes one or the other).

const NOW = '2026-11-21T10:00:00.000Z';
const PROJECT = '6f1c2a7e-1d2b-4c3d-9e8f-0a1b2c3d4e5f';
const CERT = 'unchanged rules=0123456789abcdef';

const canonical = fc.date({ min: new Date('1901-01-01T00:00:00Z'), max: new Date('2298-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
const entry = fc.record(
  {
    level: fc.constantFrom('debug', 'info', 'warn', 'error'),
    message: fc.string({ maxLength: 20, unit: 'binary' }),
    timestamp: canonical,
    metadata: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
    trace_id: fc.stringMatching(/^[0-9a-f]{0,32}$/),
    span_id: fc.stringMatching(/^[0-9a-f]{0,16}$/),
    request_id: fc.string({ maxLength: 10 }),
    context: fc.string({ maxLength: 8 }),
    release: fc.string({ maxLength: 10 }),
  },
  { requiredKeys: ['level', 'message'] },
);
const body = fc.record(
  {
    service: fc.string({ maxLength: 6 }),
    environment: fc.string({ maxLength: 6 }),
    release: fc.string({ maxLength: 6 }),
    logs: fc.array(entry, { minLength: 1, maxLength: 6 }),
  },
  { requiredKeys: ['logs'] },
);

/** What the receiver writes for a request the checks and the scrubber left as sent: both versions. */
function both(b: unknown, ids: string[], retentionDays?: number) {
  const text = JSON.stringify(b);
  const parsed = JSON.parse(text);
  const events = fastLogsToEvents(parsed, NOW)!;
  const batch = newEvents(events, ids);
  const v2 = encodeBatch('log', PROJECT, NOW, batch, retentionDays);
  const v3 = encodeAsSent({
    kind: 'log',
    projectId: PROJECT,
    receivedAt: NOW,
    body: Buffer.from(text),
    ids,
    retentionDays,
    certificate: CERT,
    key: batchKey('log', batch),
  });
  return { parsed, v2, v3 };
}

const rows = (m: { value: Buffer; headers: Record<string, string> }) => decodeMessage('log', m).events.map((e) => KINDS.log.toRow(e, 7));

describe('message version 3: a log request as sent', () => {
  it('gives the events and rows the version-2 envelope of the same request gives', () => {
    let asSent = 0;
    fc.assert(
      fc.property(body, fc.boolean(), fc.option(fc.integer({ min: 1, max: 3650 }), { nil: undefined }), (b, listed, retention) => {
        const n = b.logs.length;
        const ids = listed ? Array.from({ length: n }, () => crypto.randomUUID()) : sequentialIds(n);
        const { parsed, v2, v3 } = both(b, ids, retention);
        expect(kindOf('log').asSent!(parsed)).toBe(true);
        asSent++;
        expect(v3.key).toBe(v2.key);
        expect(v3.headers[HEADERS.eventCount]).toBe(String(n));
        const a = decodeMessage('log', v2);
        const c = decodeMessage('log', v3);
        expect(c.rejected).toEqual([]);
        expect(c.events.map(({ schema_version: _, ...e }) => e)).toEqual(a.events.map(({ schema_version: _, ...e }) => e));
        expect(rows(v3)).toEqual(rows(v2));
        // Ids: one header value for a sequence, every id otherwise.
        expect(v3.headers[HEADERS.eventIds].split(',')).toHaveLength(listed && n > 1 ? n : 1);
      }),
      { numRuns: runs(400), seed: SEED },
    );
    expect(asSent).toBeGreaterThan(0);
  });

  it('is what the kind may send as it is only when every field reaches the events unchanged', () => {
    const ok = { service: 's', logs: [{ level: 'info', message: 'm', timestamp: '2026-11-21T10:00:00.000Z', metadata: { a: 1 } }] };
    const asSent = (b: unknown) => fastLogsToEvents(b, NOW) !== undefined && kindOf('log').asSent!(b);
    expect(asSent(ok)).toBe(true);
    expect(asSent({ ...ok, extra: 1 })).toBe(false);
    expect(asSent({ logs: [{ ...ok.logs[0], unknown_field: 'password=hunter2' }] })).toBe(false);
    expect(asSent({ logs: [{ ...ok.logs[0], timestamp: '2026-11-21T10:00:00Z' }] })).toBe(false);
    expect(asSent({ logs: [{ ...ok.logs[0], timestamp: '2026-11-21T12:00:00.000+02:00' }] })).toBe(false);
    expect(asSent({ logs: [{ level: 'info', message: 'no timestamp: the received-at header' }] })).toBe(true);
  });

  it('reads absent fields as the defaults, an absent timestamp as the received-at header', () => {
    const { v3 } = both({ logs: [{ level: 'warn', message: 'x' }] }, sequentialIds(1));
    expect(decodeMessage('log', v3).events[0]).toMatchObject({
      schema_version: 3,
      project_id: PROJECT,
      received_at: NOW,
      data: { service: 'unknown', environment: 'production', release: '', timestamp: NOW, metadata: {}, trace_id: '', context: '' },
    });
  });

  it('refuses a message whose headers lack a fact, or name another kind, count or version', () => {
    const { v3 } = both(
      {
        logs: [
          { level: 'info', message: 'a' },
          { level: 'info', message: 'b' },
        ],
      },
      sequentialIds(2),
    );
    const without = (name: string) => ({ ...v3, headers: Object.fromEntries(Object.entries(v3.headers).filter(([k]) => k !== name)) });
    const bad = (headers: Record<string, string>) => () => decodeMessage('log', { value: v3.value, headers: { ...v3.headers, ...headers } });
    for (const h of [HEADERS.projectId, HEADERS.receivedAt, HEADERS.eventIds, HEADERS.eventCount, HEADERS.scrub])
      expect(() => decodeMessage('log', without(h)), h).toThrow(DecodeError);
    expect(bad({ [HEADERS.scrub]: 'changed' }), 'no certificate').toThrow(/certificate/);
    expect(bad({ [HEADERS.kind]: 'span' })).toThrow(/expected kind log/);
    expect(bad({ [HEADERS.eventCount]: '3' })).toThrow(/dt-event-count says 3/);
    expect(bad({ [HEADERS.retentionDays]: '0' })).toThrow(DecodeError);
    expect(bad({ [HEADERS.eventIds]: `${crypto.randomUUID()},${crypto.randomUUID()},${crypto.randomUUID()}` })).toThrow(/names 3 ids/);
    expect(() => decodeMessage('span', { value: v3.value, headers: { ...v3.headers, [HEADERS.kind]: 'span' } })).toThrow(/no version-3 form/);
    expect(bad({ [HEADERS.schemaVersion]: '4' })).toThrow(UnsupportedVersion);
    // Without its headers, the value is not an envelope.
    expect(() => decodeMessage('log', v3.value)).toThrow(DecodeError);
  });

  it('reads each record of a request it cannot read whole on its own, and re-encodes a refused one as a version-2 letter', () => {
    const ids = sequentialIds(3);
    const value = Buffer.from(
      JSON.stringify({
        service: 'a',
        logs: [
          { level: 'info', message: 'ok', region: 'eu' },
          { level: 'loud', message: 'bad' },
          { level: 'info', message: 'ok2' },
        ],
      }),
    );
    const m = encodeAsSent({ kind: 'log', projectId: PROJECT, receivedAt: NOW, body: value, ids, certificate: CERT, key: ids[0] });
    const d = decodeMessage('log', m, { raw: true });
    expect(d.events.map((e) => [e.event_id, e.data.message, e.data.service])).toEqual([
      [ids[0], 'ok', 'a'],
      [ids[2], 'ok2', 'a'],
    ]);
    expect(d.events[0].raw).toMatchObject({ message: 'ok', region: 'eu' });
    expect(d.rejected).toHaveLength(1);
    expect(d.rejected[0].reason).toMatch(/^bad log data: .*level/);
    const letter = JSON.parse(d.alone(d.rejected[0].event).toString());
    expect(letter).toMatchObject({ schema_version: 2, kind: 'log', project_id: PROJECT, received_at: NOW, events: [{ event_id: ids[1], data: { level: 'loud' } }] });
    const headers = d.aloneHeaders!({ ...m.headers, traceparent: 'kept' });
    expect(headers).toEqual({
      [HEADERS.schemaVersion]: '2',
      [HEADERS.kind]: 'log',
      [HEADERS.projectId]: PROJECT,
      [HEADERS.eventCount]: '1',
      [HEADERS.contentType]: 'application/json',
      traceparent: 'kept',
    });
    expect(() => decodeMessage('log', { ...m, value: Buffer.from('{"logs": "nope"}') })).toThrow(/bad log request/);
  });
});

describe('event ids', () => {
  it('count up in their last 48 bits, wrapping, and a header names them in one id or all', () => {
    const ids = sequentialIds(3, '0b8e5c2e-9f7a-4b1e-9c57-fffffffffffe');
    expect(ids).toEqual(['0b8e5c2e-9f7a-4b1e-9c57-fffffffffffe', '0b8e5c2e-9f7a-4b1e-9c57-ffffffffffff', '0b8e5c2e-9f7a-4b1e-9c57-000000000000']);
    expect(eventIdsHeader(ids)).toBe(ids[0]);
    expect(idsOfHeader(eventIdsHeader(ids), 3)).toEqual(ids);
    const random = [crypto.randomUUID(), crypto.randomUUID()];
    expect(idsOfHeader(eventIdsHeader(random), 2)).toEqual(random);
    expect(new Set(sequentialIds(1000)).size).toBe(1000);
    expect(() => idsOfHeader('not-a-uuid', 1)).toThrow(DecodeError);
    expect(() => idsOfHeader(undefined, 1)).toThrow(DecodeError);
  });
});
