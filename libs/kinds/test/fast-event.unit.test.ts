import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS, kindOf, type EventKind } from '@devtrail/kinds';
import { runs } from '../../../test/support/property.ts';

// Each kind's zod-free event check (derived from its fields, kind.ts) must answer exactly what
// its event schema answers: the same object, key for key and in the same order, or "ask zod"
// (undefined). It decodes every event the consumers read, so a difference would store what
// the schema refuses or drop what it accepts.

const iso = fc.date({ min: new Date(Date.UTC(1901, 0, 1)), max: new Date(Date.UTC(2298, 0, 1)), noInvalidDate: true }).map((d) => d.toISOString());
const json = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });

/** A value of the field's type, valid for its event schema. */
function validValue(kind: EventKind, name: string): fc.Arbitrary<unknown> {
  const shape = kindOf(kind).event.shape[name];
  const sample = (arb: fc.Arbitrary<unknown>) => arb.filter((v) => shape.safeParse(v).success);
  type Def = { typeName: string; values?: string[]; innerType?: { _def: Def }; type?: { _def: { typeName?: string; shape?: () => Record<string, unknown> } } };
  const number = fc.oneof(fc.nat(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  let def = (shape as unknown as { _def: Def })._def;
  if (def.typeName === 'ZodDefault') def = def.innerType!._def; // a field added later (fields.ts `added`)
  switch (def.typeName) {
    case 'ZodBoolean':
      return fc.boolean();
    case 'ZodEnum':
      return fc.constantFrom(...def.values!);
    case 'ZodNumber':
      return sample(number);
    case 'ZodNullable':
      return fc.oneof(fc.constant(null), number);
    case 'ZodRecord':
      return json;
    case 'ZodArray':
      if (def.type?._def.typeName === 'ZodNumber') return sample(fc.array(fc.nat(), { maxLength: 3 }));
      if (def.type?._def.shape && 'trace_id' in def.type._def.shape())
        return fc.array(fc.record({ time: iso, value: number, trace_id: fc.string({ maxLength: 8 }), span_id: fc.string({ maxLength: 8 }), attributes: json }), {
          maxLength: 2,
        });
      if (def.type?._def.shape && 'role' in def.type._def.shape())
        return fc.array(fc.record({ role: fc.string({ maxLength: 8 }), parts: fc.array(json, { maxLength: 2 }) }), { maxLength: 2 });
      return fc.array(fc.record({ type: fc.string(), message: fc.string(), timestamp: iso }), { maxLength: 2 });
    default:
      if (name.includes('time') || name === 'timestamp') return iso;
      if (name === 'fingerprint') return fc.stringMatching(/^[0-9a-f]{64}$/);
      return fc.string({ maxLength: 12 });
  }
}

/** Anything JSON can hold where the field is, or nothing. */
const wrongValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.jsonValue({ maxDepth: 2 }), fc.constant('not-a-time'), fc.constant(-1), fc.constant(1.5));

function events(kind: EventKind) {
  const names = Object.keys(kindOf(kind).event.shape);
  const valid = fc.record(Object.fromEntries(names.map((n) => [n, validValue(kind, n)])));
  const broken = fc
    .tuple(valid, fc.constantFrom(...names), wrongValue, fc.boolean())
    .map(([e, name, value, extra]) => ({ ...e, [name]: value, ...(extra ? { future_field: 1 } : {}) }));
  const protoKey = valid.map((e) => JSON.parse(JSON.stringify(e).replace('{', '{"__proto__":{"x":1},')));
  return fc.oneof(valid, broken, protoKey);
}

describe.each(EVENT_KINDS)('the zod-free check of a %s event', (kind) => {
  const k = kindOf(kind);

  it('accepts only what the event schema accepts, and gives exactly what it gives', () => {
    fc.assert(
      fc.property(events(kind), (data) => {
        const fast = k.fastEvent(data);
        const parsed = k.event.safeParse(data);
        if (fast === undefined) return; // zod decides
        expect(parsed.success).toBe(true);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
      }),
      { numRuns: runs(400) },
    );
  });

  it("keeps an event that has exactly its fields in order as it is, and copies any other into the schema's order", () => {
    const valid = fc.sample(events(kind), 60).filter((d) => k.event.safeParse(d).success && !Object.hasOwn(d as object, '__proto__'));
    for (const d of valid) {
      const exact = k.event.parse(d) as Record<string, unknown>; // the schema's order, every field
      const fast = k.fastEvent(exact);
      if (fast === undefined) continue; // a kind zod alone decodes
      expect(fast).toBe(exact);
      const reordered = Object.fromEntries(Object.entries(exact).reverse());
      const copy = k.fastEvent(reordered);
      expect(copy).not.toBe(reordered);
      expect(JSON.stringify(copy)).toBe(JSON.stringify(exact));
    }
  });

  it('writes the same row as its cells (toCells in cellColumns order) as toRow does', () => {
    fc.assert(
      fc.property(events(kind), fc.option(fc.integer({ min: 1, max: 3650 }), { nil: undefined }), (data, retention) => {
        const parsed = k.event.safeParse(data);
        if (!parsed.success) return;
        const e = {
          project_id: 'p',
          event_id: '0b8e5c2e-9f7a-4b1e-9c57-2f4f0f6c1a10',
          received_at: '2026-11-21T10:00:00.123Z',
          retention_days: retention,
          data: parsed.data,
        };
        const cells = k.toCells(e as never, 30);
        expect(cells).toHaveLength(k.cellColumns.length);
        expect(Object.fromEntries(k.cellColumns.map((c, i) => [c, cells[i]]))).toEqual(k.toRow(e as never, 30));
      }),
      { numRuns: runs(200) },
    );
  });

  it('takes the fast way for well-formed events where the fields allow one', () => {
    const allChecked = Object.values(k.fields).every((f) => (f as { is?: unknown }).is);
    const sample = fc.sample(events(kind), 50).filter((d) => k.event.safeParse(d).success && !Object.hasOwn(d as object, '__proto__'));
    expect(sample.length).toBeGreaterThan(0);
    for (const d of sample) expect(k.fastEvent(d) !== undefined).toBe(allChecked);
  });
});
