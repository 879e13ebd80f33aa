import { describe, expect, it } from 'vitest';
import { createMemoryLog, MessageLogError } from '../src/index.ts';
import { messageLogContract, redeliveryAfterHandlerFailure } from './message-log.contract.ts';

messageLogContract('in-process log', async () => createMemoryLog());

describe('in-process log bounds', () => {
  it('refuses a send past its capacity with a retryable error instead of growing', async () => {
    const log = createMemoryLog({ capacity: 10 });
    await log.ensureTopics(['t'], 1);
    const p = log.createProducer();
    await p.send([{ topic: 't', messages: Array.from({ length: 10 }, () => ({ key: null, value: Buffer.from('x'), headers: {} })) }]);
    const err = await p.send([{ topic: 't', messages: [{ key: null, value: Buffer.from('y'), headers: {} }] }]).catch((e) => e);
    expect(err).toBeInstanceOf(MessageLogError);
    expect(err.retryable).toBe(true);
  });
});

describe('in-process log retention', () => {
  it('drops only what every group committed, and only when room is needed', async () => {
    const log = createMemoryLog({ capacity: 10 });
    await log.ensureTopics(['t'], 1);
    const p = log.createProducer();
    const c = log.createConsumer({ groupId: 'g', topics: ['t'] });
    await p.send([{ topic: 't', messages: Array.from({ length: 10 }, () => ({ key: null, value: Buffer.from('x'), headers: {} })) }]);
    await c.run(async (batch) => c.commit([{ topic: 't', partition: 0, offset: String(Number(batch[batch.length - 1].offset) + 1) }]));
    await expect.poll(async () => (await log.lag('g', ['t']))[0].lag).toBe(0);
    await c.stop();
    await expect(p.send([{ topic: 't', messages: [{ key: null, value: Buffer.from('y'), headers: {} }] }])).resolves.toBeUndefined();
  });
});

redeliveryAfterHandlerFailure('in-process log', async () => createMemoryLog());
