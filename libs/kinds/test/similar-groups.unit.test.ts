import { describe, expect, it } from 'vitest';
import { similarGroups, SIMILAR_MAX } from '@devtrail/kinds';

// "Similar issues" (docs/fingerprint.md, "Similar issues"): open groups whose latest reports
// share in-app frames or read as one type and message are offered for a merge; others are not.

const group = (fingerprint: string, error_type: string, error_message: string, stack_trace: string) => ({
  fingerprint,
  latest: { event_id: '', error_type, error_message, stack_trace, severity: 'high', service: 's', release: '', environment: 'production' },
});
const fp = (c: string) => c.repeat(64);

describe('similar groups', () => {
  const me = group(fp('a'), 'NotFoundError', 'Order 7 not found', 'NotFoundError: x\n    at loadOrder (/app/src/orders.ts:10:3)\n    at handle (/app/src/routes.ts:4:1)');

  it('offers groups sharing half or more of the in-app frames, or the stripped message and type; not itself, not others', () => {
    const sameFrames = group(
      fp('b'),
      'TypeError',
      'x is undefined',
      'TypeError: x\n    at loadOrder (/srv/app/src/orders.ts:12:3)\n    at handle (/srv/app/src/routes.ts:4:1)',
    );
    const halfFrames = group(fp('c'), 'RangeError', 'bad', 'RangeError: bad\n    at loadOrder (/app/src/orders.ts:10:3)\n    at other (/app/src/other.ts:1:1)');
    const sameMessage = group(fp('d'), 'NotFoundError', 'Order 9123 not found', 'NotFoundError: Order 9123 not found\n    at x (/app/node_modules/lib/index.js:1:1)');
    const other = group(fp('e'), 'NotFoundError', 'Order 7 not found', 'NotFoundError: x\n    at refund (/app/src/refunds.ts:1:1)');
    const otherType = group(fp('f'), 'ValueError', 'Order 9123 not found', '');
    const found = similarGroups(me, [me, sameFrames, halfFrames, sameMessage, other, otherType]);
    expect(found.map((s) => [s.fingerprint, s.reason, s.overlap])).toEqual([
      [fp('b'), 'frames', 1],
      [fp('c'), 'frames', 0.5],
    ]);
    const noStack = group(fp('1'), 'NotFoundError', 'Order 7 not found', '');
    expect(similarGroups(noStack, [sameMessage, otherType]).map((s) => [s.fingerprint, s.reason])).toEqual([[fp('d'), 'message']]);
  });

  it('answers at most SIMILAR_MAX', () => {
    const many = Array.from({ length: 30 }, (_, i) => group(i.toString(16).padStart(64, '0'), 'TypeError', 'x', me.latest.stack_trace));
    expect(similarGroups(me, many)).toHaveLength(SIMILAR_MAX);
  });
});
