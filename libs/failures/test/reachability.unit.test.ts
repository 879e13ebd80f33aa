import { describe, expect, it } from 'vitest';
import { reachability, type LogFn } from '@devtrail/failures';

describe('reachability', () => {
  it('logs one warning when a backend is lost and one line when it is back, whatever happens in between', () => {
    const lines: Array<[string, string, Record<string, unknown>]> = [];
    const log: LogFn = (level, msg, extra) => lines.push([level, msg, extra]);
    let t = 1000;
    const r = reachability('kafka', log, () => t);

    r.reached();
    expect(lines).toEqual([]);
    expect(r.down).toBe(false);

    r.unreachable(new Error('connect ECONNREFUSED'));
    t += 500;
    r.unreachable(new Error('timed out'));
    r.unreachable('not an Error');
    expect(r.down).toBe(true);
    t += 1500;
    r.reached();
    r.reached();
    expect(r.down).toBe(false);

    r.unreachable(new Error('reset'));
    expect(lines).toEqual([
      ['warn', 'kafka unreachable', { backend: 'kafka', err: 'connect ECONNREFUSED' }],
      ['info', 'kafka reachable again', { backend: 'kafka', down_ms: 2000 }],
      ['warn', 'kafka unreachable', { backend: 'kafka', err: 'reset' }],
    ]);
  });
});
