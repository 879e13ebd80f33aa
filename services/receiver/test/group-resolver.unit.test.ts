import { describe, expect, it } from 'vitest';
import type { ErrorEvent } from '@devtrail/kinds';
import type { GroupLookup } from '@devtrail/relational-store';
import { GroupResolver } from '../src/group-resolver.ts';

// Which group an error event joins (docs/fingerprint.md, "Upgrading", "Merging groups"): the
// decision and its cache, with an in-memory stand-in for PostgreSQL's answer (the real lookup
// runs against PostgreSQL and PGlite in the relational-store contract, and end to end in
// services/dashboard/test/error-groups.test.ts).

const fp = (c: string) => c.repeat(64);
const event = (fingerprint: string, previous: string) => ({ fingerprint, previous_fingerprint: previous }) as ErrorEvent;

function standIn(found: Partial<GroupLookup> = {}) {
  const calls: Array<{ fps: string[]; previous: string[] }> = [];
  let failing = false;
  const lookup = async (_project: string, fps: string[], previous: string[]): Promise<GroupLookup> => {
    calls.push({ fps, previous });
    if (failing) throw new Error('connection refused');
    return { merged: found.merged ?? new Map(), previous: found.previous ?? new Set() };
  };
  return { lookup, calls, fail: () => (failing = true) };
}

describe('the group an error event joins', () => {
  it("its previous-rule group when one exists, a merged group's target, else its own", async () => {
    const s = standIn({
      previous: new Set([fp('1')]),
      merged: new Map([
        [fp('b'), fp('c')],
        [fp('2'), fp('d')],
      ]),
    });
    const r = new GroupResolver(s.lookup);
    const events = [event(fp('a'), fp('1')), event(fp('b'), fp('3')), event(fp('e'), fp('2')), event(fp('f'), ''), event(fp('0'), fp('9'))];
    await r.resolve('p', events);
    expect(events.map((e) => e.fingerprint)).toEqual([fp('1'), fp('c'), fp('d'), fp('f'), fp('0')]);
    expect(s.calls).toHaveLength(1); // one lookup for the whole request
  });

  it('tries the earlier rules nearest first: v2 groups, then v1 groups, then its own (rows of one fingerprint read alike)', async () => {
    const s = standIn({ previous: new Set([fp('1'), fp('2')]), merged: new Map([[fp('4'), fp('c')]]) });
    const r = new GroupResolver(s.lookup);
    const events = [
      event(fp('a'), `${fp('1')} ${fp('2')}`),
      event(fp('b'), `${fp('3')} ${fp('2')}`),
      event(fp('e'), `${fp('4')} ${fp('1')}`),
      event(fp('f'), `${fp('5')} ${fp('6')}`),
    ];
    await r.resolve('p', events);
    expect(events.map((e) => e.fingerprint)).toEqual([fp('1'), fp('2'), fp('c'), fp('f')]);
    expect(s.calls[0].previous).toEqual([fp('1'), fp('2'), fp('3'), fp('2'), fp('4'), fp('1'), fp('5'), fp('6')]);
  });

  it('answers again from its cache, per project, until the project changes', async () => {
    const s = standIn({ previous: new Set([fp('1')]) });
    const r = new GroupResolver(s.lookup);
    await r.resolve('p', [event(fp('a'), fp('1'))]);
    const again = [event(fp('a'), fp('1'))];
    await r.resolve('p', again);
    expect([again[0].fingerprint, s.calls.length]).toEqual([fp('1'), 1]);
    await r.resolve('q', [event(fp('a'), fp('1'))]);
    expect(s.calls).toHaveLength(2);
    r.evictProject('p');
    await r.resolve('p', [event(fp('a'), fp('1'))]);
    expect(s.calls).toHaveLength(3);
  });

  it('keeps the computed group when the lookup fails (a stand-in for PostgreSQL out), and says so', async () => {
    const s = standIn();
    const failures: unknown[] = [];
    const r = new GroupResolver(s.lookup, (err) => failures.push(err));
    s.fail();
    const events = [event(fp('a'), fp('1'))];
    await r.resolve('p', events);
    expect(events[0].fingerprint).toBe(fp('a'));
    expect(failures).toHaveLength(1);
  });
});
