import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepTrace } from '../src/index.ts';

// Trace-consistent sampling (docs/data.md#sampling): the same answer for a trace wherever it
// is asked, about the rate over many traces, and nested rates keep nested sets of traces.

const traceId = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => Buffer.from(b).toString('hex'));

describe('sampling by trace id', () => {
  it('keeps about `rate` of the traces', () => {
    const ids = Array.from({ length: 20_000 }, () => randomBytes(16).toString('hex'));
    for (const rate of [0.01, 0.1, 0.5, 0.9]) {
      const kept = ids.filter((id) => keepTrace(id, rate)).length / ids.length;
      expect(Math.abs(kept - rate), `rate ${rate}`).toBeLessThan(0.01 + rate * 0.05);
    }
  });

  it('answers a trace the same way whatever its case, and keeps at a lower rate only traces kept at a higher one', () => {
    fc.assert(
      fc.property(traceId, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (id, a, b) => {
        expect(keepTrace(id.toUpperCase(), a)).toBe(keepTrace(id, a));
        if (keepTrace(id, Math.min(a, b))) expect(keepTrace(id, Math.max(a, b))).toBe(true);
      }),
    );
  });

  it('keeps everything at 1 and nothing at 0', () => {
    fc.assert(fc.property(fc.string(), (id) => keepTrace(id, 1) && !keepTrace(id, 0)));
  });
});
