import { afterEach, describe, expect, it, vi } from 'vitest';
import { reachability, type LogFn } from '@devtrail/failures';

describe('reachability', () => {
  it('logs one warning when a backend is lost and one line when it is back, whatever happens in between', () => {
    const lines: Array<[string, string, Record<string, unknown>]> = [];
    const log: LogFn = (level, msg, extra) => lines.push([level, msg, extra]);
    let t = 1000;
    const r = reachability('kafka', log, { now: () => t, settleMs: 0 });

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

  describe('a backend that flaps while it comes back', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const setup = () => {
      vi.useFakeTimers({ now: 0 });
      const lines: string[] = [];
      const r = reachability('kafka', (_level, msg) => lines.push(msg), { settleMs: 5000 });
      r.unreachable(new Error('refused'));
      vi.advanceTimersByTime(3000);
      r.reached();
      return { r, lines };
    };

    it('does not log a failure right after a recovery that is answered again within the settle time', () => {
      const { r, lines } = setup();
      for (let i = 0; i < 5; i++) {
        vi.advanceTimersByTime(400);
        r.unreachable(new Error('not the leader yet'));
        expect(r.down).toBe(true);
        vi.advanceTimersByTime(400);
        r.reached();
      }
      vi.advanceTimersByTime(60_000);
      expect(lines).toEqual(['kafka unreachable', 'kafka reachable again']);
      expect(r.down).toBe(false);
    });

    it('logs a failure right after a recovery once nothing is answered for the settle time', () => {
      const { r, lines } = setup();
      vi.advanceTimersByTime(1000);
      r.unreachable(new Error('gone again'));
      vi.advanceTimersByTime(4999);
      expect(lines).toEqual(['kafka unreachable', 'kafka reachable again']);
      vi.advanceTimersByTime(1);
      expect(lines).toEqual(['kafka unreachable', 'kafka reachable again', 'kafka unreachable']);
      vi.advanceTimersByTime(2000);
      r.reached();
      expect(lines).toEqual(['kafka unreachable', 'kafka reachable again', 'kafka unreachable', 'kafka reachable again']);
    });

    it('logs a failure at once when the last recovery is older than the settle time', () => {
      const { r, lines } = setup();
      vi.advanceTimersByTime(5000);
      r.unreachable(new Error('down'));
      expect(lines).toEqual(['kafka unreachable', 'kafka reachable again', 'kafka unreachable']);
    });
  });
});
