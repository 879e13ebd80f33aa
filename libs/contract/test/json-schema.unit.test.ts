import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeBatch, newEvents } from '@devtrail/contract';
import { envelopeFile, eventFile, incompatibilities, jsonSchemaFiles, jsonSchemaIndex, type JsonSchema } from '@devtrail/contract/json-schema';
import { EVENT_KINDS, kindOf, type EventKind } from '@devtrail/kinds';
import { encodeEnvelope, newEnvelope } from '../../../test/support/envelopes.ts';
import { messageSchemaCheck } from '../../../test/support/message-schema-check.ts';

// The published JSON Schema (docs/schemas/): generated from the zod schemas the decoder
// uses, checked in exactly as generated, accepted by a standard validator for what devtrail
// writes, and never changed in a way that breaks a consumer of the checked-in version.

const DOCS = new URL('../../../docs/schemas/', import.meta.url);
const generated = jsonSchemaFiles();
const checkedIn = (name: string): JsonSchema => JSON.parse(readFileSync(new URL(name, DOCS), 'utf8'));
const NOW = '2026-11-21T10:00:00.000Z';
const PROJECT = '6f1c2a7e-1d2b-4c3d-9e8f-0a1b2c3d4e5f';

/** A message of each kind as the receiver writes it: the kind's documented sample through its own normalisation. */
function sampleMessage(kind: EventKind) {
  const k = kindOf(kind);
  const events = k.toEvents(k.request.parse(k.docs.sample), NOW);
  return encodeBatch(kind, PROJECT, NOW, newEvents(events as never[]));
}

describe('docs/schemas', () => {
  it('is exactly what the generator writes (run `npm run openapi` after changing an event or the envelope)', () => {
    const names = readdirSync(DOCS).sort();
    expect(names).toEqual([...Object.keys(generated), 'index.json'].sort());
    for (const [name, schema] of Object.entries(generated)) expect(readFileSync(new URL(name, DOCS), 'utf8'), name).toBe(`${JSON.stringify(schema, null, 2)}\n`);
    expect(checkedIn('index.json')).toEqual(jsonSchemaIndex(generated));
  });

  it("changes nothing that breaks a consumer of the checked-in version (else: a new message version, docs/topics.md 'Evolution')", () => {
    for (const [name, schema] of Object.entries(generated)) expect(incompatibilities(checkedIn(name), schema), name).toEqual([]);
  });
});

describe('the envelope schemas', () => {
  const check = messageSchemaCheck();

  it('accept a version-2 message of every kind as the receiver encodes it, and a version-1 message as older receivers did', () => {
    for (const kind of EVENT_KINDS) {
      const m = sampleMessage(kind);
      expect(decodeMessage(kind, m.value).events.length).toBeGreaterThan(0);
      expect(check(m.value), kind).toBeNull();
      const v1 = encodeEnvelope(newEnvelope(kind, PROJECT, NOW, decodeMessage(kind, m.value).events[0].data));
      expect(check(v1.value), `${kind} v1`).toBeNull();
    }
  });

  it('refuse what the decoder refuses: a bad event id, a missing field, a wrong type, an unknown level, another version', () => {
    const base = JSON.parse(sampleMessage('log').value.toString());
    const variants: Array<(m: any) => void> = [
      (m) => (m.events[0].event_id = 'not-a-uuid'),
      (m) => delete m.events[0].data.message,
      (m) => (m.events[0].data.metadata = 'text'),
      (m) => (m.events[0].data.level = 'trace'),
      (m) => (m.kind = 'metric'),
      (m) => (m.schema_version = 3),
      (m) => (m.project_id = ''),
    ];
    for (const change of variants) {
      const m = structuredClone(base);
      change(m);
      const value = JSON.stringify(m);
      expect(check(value), change.toString()).not.toBeNull();
      // The decoder refuses the same: the whole message, or its one event.
      let read = 0;
      try {
        read = decodeMessage('log', value).events.length;
      } catch {
        /* refused whole */
      }
      expect(read, change.toString()).toBe(0);
    }
  });

  it('name the event schema of every kind, the same one the envelope embeds', () => {
    for (const kind of EVENT_KINDS) {
      const event = generated[eventFile(kind)] as JsonSchema & { properties: object };
      const defs = (generated[envelopeFile(2)] as { $defs: Record<string, { properties: object }> }).$defs;
      expect(
        Object.values(defs).some((d) => JSON.stringify(d.properties) === JSON.stringify(event.properties)),
        kind,
      ).toBe(true);
      expect(Object.keys(event.properties)).toEqual(Object.keys(kindOf(kind).fields));
    }
  });
});

describe('the compatibility check', () => {
  const v2 = generated[envelopeFile(2)] as any;
  const changed = (edit: (defs: any, s: any) => void) => {
    const s = structuredClone(v2);
    edit(s.$defs, s);
    return incompatibilities(v2, s);
  };
  const breaks = (edit: (defs: any, s: any) => void) => changed(edit).map((i) => `${i.breaks}: ${i.at}: ${i.what}`);

  it('finds nothing between a schema and itself', () => {
    for (const schema of Object.values(generated)) expect(incompatibilities(schema, structuredClone(schema))).toEqual([]);
  });

  it('lets an optional field and a new kind through', () => {
    expect(breaks((d) => (d.LogEvent.properties.host = { type: 'string' }))).toEqual([]);
    expect(
      breaks((_d, s) => s.anyOf.push({ ...structuredClone(s.anyOf[0]), properties: { ...s.anyOf[0].properties, kind: { type: 'string', enum: ['profile'] } } })),
    ).toEqual([]);
  });

  it('names each change that breaks the consumers of the previous version', () => {
    expect(breaks((d) => d.LogEvent.required.splice(d.LogEvent.required.indexOf('message'), 1))).toEqual([
      'old reader: <kind=log>.events[].data.message: field no longer required: it may be absent',
    ]);
    expect(
      breaks((d) => {
        delete d.SpanEvent.properties.operation;
        d.SpanEvent.required = d.SpanEvent.required.filter((f: string) => f !== 'operation');
      }),
    ).toEqual(['old reader: <kind=span>.events[].data.operation: required field removed']);
    expect(breaks((d) => (d.SpanEvent.properties.duration_ms.type = 'number'))).toEqual([
      'old reader: <kind=span>.events[].data.duration_ms: type integer became number|integer: values of type number are new',
    ]);
    expect(breaks((d) => d.ErrorEvent.properties.severity.enum.push('fatal'))).toEqual([
      'old reader: <kind=error>.events[].data.severity: enum value(s) ["fatal"] added',
    ]);
    expect(breaks((d) => (d.LlmEvent.properties.input_tokens.minimum = -1))).toEqual(['old reader: <kind=llm>.events[].data.input_tokens: minimum 0 lowered to -1']);
  });

  it('names each change that breaks reading the messages Kafka still holds', () => {
    expect(breaks((d) => d.ErrorEvent.properties.severity.enum.pop())).toEqual(['old data: <kind=error>.events[].data.severity: enum value(s) ["critical"] removed']);
    expect(breaks((d) => (d.LlmEvent.properties.cost_usd.type = 'integer'))).toEqual([
      'old data: <kind=llm>.events[].data.cost_usd: type number|integer became integer: values of type number are no longer accepted',
    ]);
    expect(breaks((d) => (d.LogEvent.properties.message.type = 'array'))).toEqual([
      'old reader: <kind=log>.events[].data.message: type string became array: values of type array are new',
      'old data: <kind=log>.events[].data.message: type string became array: values of type string are no longer accepted',
    ]);
    expect(
      breaks((d) => {
        d.LogEvent.properties.host = { type: 'string' };
        d.LogEvent.required.push('host');
      }),
    ).toEqual(['old data: <kind=log>.events[].data.host: field became required: messages written before lack it']);
    expect(breaks((d) => (d.SpanEvent.properties.trace_id.maxLength = 32))).toEqual(['old data: <kind=span>.events[].data.trace_id: maxLength (none) lowered to 32']);
    expect(breaks((_d, s) => s.anyOf.splice(1, 1))).toEqual(['old data: (root): branch kind=["error"] removed']);
  });
});
