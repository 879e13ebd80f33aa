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
