import { describe, expect, it } from 'vitest';
import { compileScrubber, FILTERED, SCRUB_BUDGET_MS, scrubBudget, scrubbingSchema, scrubEvents } from '../src/index.ts';

// One scrubbing budget for a request (docs/data.md#scrubbing): the built-in rules, the key rules
// and the project's patterns share it. The built-in rules are linear, and on text written against
// them they stop at the deadline, the value filtered whole. Bounds on CPU time, not wall time: a
// loaded machine may pause the process, which no budget can bound.

const MB5 = 4_900_000;
/** Texts written against the built-in rules, ~4.9 MB each (a 5 MB body's worth). */
const HOSTILE: Record<string, string> = {
  'card-like groups (the review)': '4111 1111 1111 111 '.repeat(Math.floor(MB5 / 19)),
  'one-digit groups': '1 '.repeat(MB5 / 2),
  'dashed groups': '12-'.repeat(MB5 / 3),
  'digit-only UUIDs': '00000000-0000-1000-8000-000400000009 '.repeat(Math.floor(MB5 / 37)),
  emails: 'a@b.c '.repeat(MB5 / 6),
  'IPv6 candidates': '::1 '.repeat(MB5 / 4),
};

const cpuMs = (f: () => void) => {
  const t0 = process.cpuUsage();
  f();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
};

describe('the built-in rules under the budget', () => {
  const defaults = compileScrubber(scrubbingSchema.parse({ rules: [{ match: 'email' }, { match: 'ip' }] }), 'salt')!;

  it.each(Object.entries(HOSTILE))('%s: stop at the deadline and filter the value whole', (_name, text) => {
    let out = '';
    const ms = cpuMs(() => {
      out = defaults.text(text, scrubBudget());
    });
    // Past the budget by at most one scan that reads no clock (~100 ms over 5 MB on this machine).
    expect(ms).toBeLessThan(SCRUB_BUDGET_MS + 250);
    expect(out === FILTERED || !/4111 1111 1111 111|a@b\.c|::1 /.test(out)).toBe(true);
  });

  it('scrub a request of many values under one deadline: once spent, every value is filtered', () => {
    const events = Array.from({ length: 8 }, () => ({
      message: HOSTILE['card-like groups (the review)'].slice(0, 1_000_000),
      metadata: { note: 'paid with 4111 1111 1111 1111' },
    }));
    const ms = cpuMs(() => scrubEvents('log', events, defaults, scrubBudget()));
    expect(ms).toBeLessThan(SCRUB_BUDGET_MS + 250);
    expect(events.at(-1)).toEqual({ message: FILTERED, metadata: { note: FILTERED } });
  });

  it('leave text they have nothing to do with as fast as before: 5 MB of words in a few ms, unchanged', () => {
    const words = 'the quick brown fox 2024 jumps '.repeat(MB5 / 31);
    let out = '';
    expect(
      cpuMs(() => {
        out = defaults.text(words, scrubBudget());
      }),
    ).toBeLessThan(SCRUB_BUDGET_MS / 2);
    expect(out).toBe(words);
  });
});

describe('the key rules under the budget', () => {
  it('judge a 5 MB key in linear time; a key the budget cannot judge has its value filtered', () => {
    const withPattern = compileScrubber(scrubbingSchema.parse({ rules: [{ match: 'key', pattern: '(?:a|aa){1,75}b' }] }), 'salt')!;
    for (const key of ['password'.repeat(MB5 / 8), 'aB'.repeat(MB5 / 2), 'x'.repeat(MB5)]) {
      const events = [{ message: 'm', metadata: { [key]: 'the value', small: 'kept' } }];
      expect(cpuMs(() => scrubEvents('log', events, withPattern, scrubBudget()))).toBeLessThan(SCRUB_BUDGET_MS);
      // The pattern's worst case over 5 MB is far past the budget: not run, the value filtered.
      expect(events[0].metadata).toEqual({ [key]: FILTERED, small: 'kept' });
    }
    const defaults = compileScrubber(scrubbingSchema.parse({}), 'salt')!;
    const events = [{ message: 'm', metadata: { ['password'.repeat(MB5 / 8)]: 'secret', ['x'.repeat(MB5)]: 'kept' } }];
    expect(cpuMs(() => scrubEvents('log', events, defaults, scrubBudget()))).toBeLessThan(SCRUB_BUDGET_MS);
    expect(Object.values(events[0].metadata)).toEqual([FILTERED, 'kept']);
  });
});
