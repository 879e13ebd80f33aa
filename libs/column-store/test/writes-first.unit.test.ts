import { describe, expect, it } from 'vitest';
import { writesFirst } from '../src/writes-first.ts';

// One engine connection's order (writes-first.ts): one statement at a time, a waiting write
// before any waiting read, so reads never hold up inserts beyond the read in flight.
describe('writes first', () => {
  it('runs one job at a time, and a write that arrives behind waiting reads runs before them', async () => {
    const q = writesFirst();
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const job = (name: string, ms: number) => async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, ms));
      order.push(name);
      running--;
      return name;
    };
    const all = [q.run('read', job('read 1', 30)), q.run('read', job('read 2', 5)), q.run('read', job('read 3', 5)), q.run('write', job('insert', 5))];
    expect(await Promise.all(all)).toEqual(['read 1', 'read 2', 'read 3', 'insert']);
    expect(order).toEqual(['read 1', 'insert', 'read 2', 'read 3']);
    expect(most).toBe(1);
  });

  it('a failed job does not stop the ones behind it', async () => {
    const q = writesFirst();
    const failed = q.run('read', async () => {
      throw new Error('boom');
    });
    await expect(failed).rejects.toThrow('boom');
    expect(await q.run('write', async () => 'next')).toBe('next');
  });
});

// A lookup of several statements sends each once the last one's rows are in: the connection
// waits for it (until this turn of the event loop ends) before it takes a waiting search.
describe('a lookup keeps the connection for its next statement', () => {
  it("runs a lookup's follow-up statements before the searches that waited meanwhile", async () => {
    const q = writesFirst();
    const order: string[] = [];
    const job =
      (name: string, ms = 2) =>
      async () => {
        await new Promise((r) => setTimeout(r, ms));
        order.push(name);
      };
    const lookup = async () => {
      for (let i = 1; i <= 4; i++) await q.run('read', job(`lookup ${i}`), 1);
    };
    const first = q.run('read', job('search 1', 20), 2);
    const searches = [first, q.run('read', job('search 2'), 2), q.run('read', job('search 3'), 2)];
    await new Promise((r) => setTimeout(r, 5)); // search 1 in flight
    await Promise.all([lookup(), ...searches]);
    expect(order).toEqual(['search 1', 'lookup 1', 'lookup 2', 'lookup 3', 'lookup 4', 'search 2', 'search 3']);
  });

  it('keeps it from no write, and only for a moment: a search waits one turn of the event loop', async () => {
    const q = writesFirst();
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(name);
    };
    let insert: Promise<void> = Promise.resolve();
    const search = q.run('read', job('search 1'), 2);
    const lookup = q.run(
      'read',
      async () => {
        order.push('lookup');
        insert = q.run('write', job('insert')); // arrives as the lookup ends
      },
      1,
    );
    const waiting = q.run('read', job('search 2'), 2);
    await Promise.all([search, lookup, waiting, insert]);
    expect(order).toEqual(['search 1', 'lookup', 'insert', 'search 2']);
  });
});
