import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drainBodySchema, drainEntryToEvent, KINDS, levelOfText, logLevels } from '../src/index.ts';
import { runs } from '../../../test/support/property.ts';

// A level a sender names is looked up in a table: a name Object.prototype also has
// ("__proto__", "constructor", "toString") must read as an unknown level, not as what the
// prototype holds, or the event leaves the receiver with a level its consumers refuse.
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const levelName = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, ...PROTOTYPE_NAMES.map((n) => n.toUpperCase()), 'warning', 'FATAL', 'Info2'),
  fc.string({ maxLength: 12 }),
);

describe('level names a sender chooses', () => {
  it.each(PROTOTYPE_NAMES)('a drain entry at level "%s" is an info log the consumers take', (name) => {
    const [entry] = drainBodySchema.parse([{ timestamp: 1_795_000_000_000, level: name, message: 'm' }]);
    const event = drainEntryToEvent(entry);
    expect(event.level).toBe('info');
    expect(KINDS.log.event.safeParse(event).success).toBe(true);
  });

  it('any drain entry the receiver accepts maps to an event the log schema accepts', () => {
    const entry = fc.record(
      { timestamp: fc.integer({ min: 0, max: 4_000_000_000_000 }), level: levelName, message: fc.string(), projectName: fc.string(), environment: fc.string() },
      { requiredKeys: ['timestamp'] },
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 5 }), (entries) => {
        for (const e of drainBodySchema.parse(entries)) expect(KINDS.log.event.safeParse(drainEntryToEvent(e)).error).toBeUndefined();
      }),
      { numRuns: runs(500) },
    );
  });

  it('an OTLP severity text is one of the levels or none', () => {
    fc.assert(fc.property(levelName, (text) => [...logLevels, undefined].includes(levelOfText(text))));
    for (const name of PROTOTYPE_NAMES) expect(levelOfText(name)).toBeUndefined();
  });
});
