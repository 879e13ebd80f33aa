import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLog, type MessageLog } from '@devtrail/message-log';
import { Failure } from '@devtrail/failures';
import { createTopicConsumer, DLQ_HEADERS, type ConsumerHooks, type FlushTiming, type TopicConsumer } from '../src/index.ts';

// The kit over the in-process log (which passes the same message-log suite as Kafka);
// the write side is a plain function, as any consumer's would be.

const opened: Array<{ log: MessageLog; c: TopicConsumer }> = [];
afterEach(async () => {
  for (const { log, c } of opened.splice(0)) {
    await c.stop();
    await log.close();
  }
});

async function setup(
  write: (items: number[]) => Promise<void>,
  opts: { batchRows?: number; batchMs?: number; retryMaxMs?: number; unknownErrorRetries?: number; hooks?: ConsumerHooks } = {},
) {
  const log = createMemoryLog();
  await log.ensureTopics(['in', 'in.dlq'], 2);
  const c = createTopicConsumer<number>({
    name: 'test',
    messageLog: log,
    groupId: 'g',
    topic: 'in',
    deadLetterTopic: 'in.dlq',
    decode: (m) => {
      const v = JSON.parse(m.value!.toString());
      if (typeof v.n !== 'number') throw new Error('no n');
      return { items: [v.n] };
    },
    write,
    ...opts,
  });
  opened.push({ log, c });
  const p = log.createProducer();
  const send = (values: unknown[]) => p.send([{ topic: 'in', messages: values.map((v, i) => ({ key: String(i), value: Buffer.from(JSON.stringify(v)), headers: {} })) }]);
  const dlq = async () => {
    const out: Array<{ value: string; headers: Record<string, string> }> = [];
    const d = log.createConsumer({ groupId: `dlq-${Math.random()}`, topics: ['in.dlq'] });
    await d.run(async (b) => void out.push(...b.map((m) => ({ value: m.value!.toString(), headers: m.headers }))));
    await new Promise((r) => setTimeout(r, 150));
    await d.stop();
    return out;
  };
  return { log, c, send, dlq };
}

describe('topic consumer kit', () => {
  it('tells the flushed hook when each write ran and which messages it wrote, as runs of one partition and one fetch', async () => {
    const flushes: FlushTiming[] = [];
    const before = Date.now();
    const { c, send } = await setup(async () => {}, { batchRows: 1000, batchMs: 100, hooks: { flushed: (t) => void flushes.push(t) } });
    await c.start();
    await send(Array.from({ length: 40 }, (_, i) => ({ n: i })));
    await expect.poll(() => flushes.reduce((n, f) => n + f.items, 0), { timeout: 3000 }).toBe(40);
    const covered = flushes.flatMap((f) => f.runs).reduce((n, r) => n + Number(r.to) - Number(r.from) + 1, 0);
    expect(covered).toBe(40);
    for (const f of flushes) {
      expect(f.writeStartedAt).toBeGreaterThanOrEqual(before);
      expect(f.writeEndedAt).toBeGreaterThanOrEqual(f.writeStartedAt);
      for (const r of f.runs) {
        expect([0, 1]).toContain(r.partition);
        expect(r.fetchedAt).toBeGreaterThanOrEqual(before);
        expect(r.fetchedAt).toBeLessThanOrEqual(f.writeStartedAt);
      }
    }
  });

  it('writes micro-batches by size and by time, and commits only after the write', async () => {
    const batches: number[][] = [];
    const { c, send, log } = await setup(async (items) => void batches.push(items), { batchRows: 100, batchMs: 200 });
    await c.start();
    await send(Array.from({ length: 250 }, (_, i) => ({ n: i })));
    await expect.poll(() => batches.flat().length, { timeout: 3000 }).toBe(250);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(250);
    await expect.poll(async () => (await log.lag('g', ['in'])).reduce((n, l) => n + l.lag, 0)).toBe(0);
    expect(c.stats()).toMatchObject({ written: 250, deadLettered: 0 });
  });

  it('waits out retryable write failures without losing or committing anything early', async () => {
    let failures = 3;
    const written: number[] = [];
    const { c, send, log } = await setup(
      async (items) => {
        if (failures-- > 0) throw new Failure('store down', true);
        written.push(...items);
      },
      { batchMs: 50 },
    );
    await c.start();
    await send(Array.from({ length: 20 }, (_, i) => ({ n: i })));
    await new Promise((r) => setTimeout(r, 100));
    expect((await log.lag('g', ['in'])).reduce((n, l) => n + l.lag, 0)).toBe(20);
    await expect.poll(() => written.length, { timeout: 10_000 }).toBe(20);
    expect(c.stats().retries).toBeGreaterThanOrEqual(3);
    await expect.poll(async () => (await log.lag('g', ['in'])).reduce((n, l) => n + l.lag, 0)).toBe(0);
  });

  it('dead-letters undecodable messages and rows the store can never take, and goes on', async () => {
    const written: number[] = [];
    const { c, send, dlq } = await setup(
      async (items) => {
        if (items.includes(13)) throw new Failure('Cannot parse 13', false);
        written.push(...items);
      },
      { batchMs: 50 },
    );
    await c.start();
    await send([...Array.from({ length: 30 }, (_, i) => ({ n: i })), { nope: true }, 'garbage']);
    await expect.poll(() => c.stats().deadLettered, { timeout: 5000 }).toBe(3);
    expect(written.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i).filter((n) => n !== 13));
    const dead = await dlq();
    expect(dead).toHaveLength(3);
    expect(dead.map((d) => d.headers[DLQ_HEADERS.reason]).sort()).toEqual(
      [expect.stringMatching(/^undecodable/), expect.stringMatching(/^undecodable/), expect.stringMatching(/^write rejected: Cannot parse 13/)].sort(),
    );
    expect(dead.find((d) => d.value === '{"n":13}')!.headers[DLQ_HEADERS.sourceTopic]).toBe('in');
    await send([{ n: 99 }]);
    await expect.poll(() => written.includes(99)).toBe(true);
  });

  it('retries an unknown error (a conversion that throws a plain Error) a bounded number of times, then dead-letters its event and moves on', async () => {
    const written: number[] = [];
    const seen = { retries: { retryable: 0, unknown: 0 }, dead: [] as string[], stored: 0, stalled: false, visible: 0 };
    const toRow = (n: number) => {
      if (n === 13) throw new Error('toRow: cannot convert 13'); // a defect, not a Failure
      return { n };
    };
    const { c, send, dlq, log } = await setup(
      async (items) => {
        const rows = items.map(toRow);
        written.push(...rows.map((r) => r.n));
      },
      {
        batchMs: 50,
        retryMaxMs: 20,
        unknownErrorRetries: 4,
        hooks: {
          retried: (cause) => {
            seen.retries[cause]++;
            if (c.stats().stalledSince) seen.stalled = true;
          },
          deadLettered: (reason, n) => void seen.dead.push(...Array(n).fill(reason)),
          stored: (n) => void (seen.stored += n),
          visible: (times) => void (seen.visible += times.length),
        },
      },
    );
    await c.start();
    await send(Array.from({ length: 30 }, (_, i) => ({ n: i })));
    await expect.poll(() => c.stats().deadLettered, { timeout: 10_000 }).toBe(1);
    // The partition moved on: everything else written, the lag back to 0, nothing failing any more.
    await expect.poll(async () => (await log.lag('g', ['in'])).reduce((n, l) => n + l.lag, 0), { timeout: 5000 }).toBe(0);
    expect(written.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i).filter((n) => n !== 13));
    expect(seen.retries).toEqual({ retryable: 0, unknown: 4 });
    expect(seen.stalled).toBe(true);
    expect(c.stats().stalledSince).toBeNull();
    expect(seen.dead).toEqual(['failed']);
    expect(seen.stored).toBe(29);
    expect(seen.visible).toBe(30);
    const dead = await dlq();
    expect(dead.map((d) => [d.value, d.headers[DLQ_HEADERS.reason]])).toEqual([['{"n":13}', 'write failed after 4 retries: toRow: cannot convert 13']]);
    await send([{ n: 99 }]);
    await expect.poll(() => written.includes(99)).toBe(true);
  });

  it('writes what is buffered when stopped', async () => {
    const written: number[] = [];
    const { c, send } = await setup(async (items) => void written.push(...items), { batchMs: 60_000, batchRows: 1_000_000 });
    await c.start();
    await send(Array.from({ length: 10 }, (_, i) => ({ n: i })));
    await expect.poll(() => c.stats().buffered).toBe(10);
    await c.stop();
    expect(written).toHaveLength(10);
  });
});
