import { afterEach, describe, expect, it, vi } from 'vitest';
import '../src/node.js'; // AsyncLocalStorage context, as the package's Node entry provides
import { bodiesAt, logsIn, makeClient } from './helpers/client.js';

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('logger', () => {
  it('sends every level with the service envelope', async () => {
    const { client, calls } = makeClient();
    client.logger.debug('d');
    client.logger.info('i', { orderId: 7 });
    client.logger.warn('w');
    client.logger.error('e', new Error('bad'));
    await client.flush();
    const [batch] = bodiesAt(calls, '/ingest/logs');
    expect(batch).toMatchObject({ service: 'checkout', environment: 'test', release: 'v1' });
    expect(batch.logs.map((l: any) => [l.level, l.message])).toEqual([
      ['debug', 'd'],
      ['info', 'i'],
      ['warn', 'w'],
      ['error', 'e'],
    ]);
    expect(batch.logs[1].metadata).toEqual({ orderId: 7 });
    expect(batch.logs[3].metadata.error).toMatchObject({ name: 'Error', message: 'bad' });
    expect(batch.logs[0].trace_id).toBeUndefined();
  });

  it('child loggers carry a context name and merged metadata', async () => {
    const { client, calls } = makeClient();
    const api = client.child({ context: 'api', metadata: { region: 'eu', a: 1 } });
    const db = api.child('db');
    const tagged = db.child({ metadata: { a: 2 } });
    api.info('one');
    db.info('two');
    tagged.info('three', { b: 3 });
    await client.flush();
    expect(logsIn(calls).map((l) => [l.context, l.metadata])).toEqual([
      ['api', { region: 'eu', a: 1 }],
      ['api.db', { region: 'eu', a: 1 }],
      ['api.db', { region: 'eu', a: 2, b: 3 }],
    ]);
  });

  it('survives metadata that JSON.stringify would reject', async () => {
    const { client, calls } = makeClient();
    const loop: any = { name: 'loop' };
    loop.self = loop;
    client.logger.info('odd', { loop, big: 10n });
    await client.flush();
    expect(logsIn(calls)[0].metadata).toEqual({ loop: { name: 'loop', self: '[Circular]' }, big: '10' });
  });

  it('can mirror logs to the console', async () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = makeClient({ console: true });
    client.child('jobs').warn('slow', { ms: 900 });
    expect(spy).toHaveBeenCalledWith('[jobs] slow', { ms: 900 });
  });
});

describe('spans', () => {
  it('startSpan ends with ok and returns the value (sync and async)', async () => {
    const { client, calls } = makeClient();
    expect(client.startSpan('sync', () => 42)).toBe(42);
    await expect(
      client.startSpan('async', async () => {
        await new Promise((r) => setTimeout(r, 15));
        return 'done';
      }),
    ).resolves.toBe('done');
    await client.flush();
    const spans = bodiesAt(calls, '/ingest/traces');
    expect(spans.map((s) => [s.operation, s.status])).toEqual([
      ['sync', 'ok'],
      ['async', 'ok'],
    ]);
    expect(spans[0]).toMatchObject({ service: 'checkout', parent_span_id: '' });
    expect(spans[0].trace_id).toMatch(HEX32);
    expect(spans[0].span_id).toMatch(HEX16);
    expect(spans[1].duration_ms).toBeGreaterThanOrEqual(10);
    expect(Number.isInteger(spans[1].duration_ms)).toBe(true);
  });

  it('startSpan ends with error when the function throws or rejects, and rethrows', async () => {
    const { client, calls } = makeClient();
    expect(() =>
      client.startSpan('sync', () => {
        throw new TypeError('nope');
      }),
    ).toThrow('nope');
    await expect(
      client.startSpan('async', async () => {
        throw new Error('later');
      }),
    ).rejects.toThrow('later');
    await client.flush();
    const spans = bodiesAt(calls, '/ingest/traces');
    expect(spans.map((s) => [s.operation, s.status, s.metadata['error.message']])).toEqual([
      ['sync', 'error', 'nope'],
      ['async', 'error', 'later'],
    ]);
    expect(spans[0].metadata['error.type']).toBe('TypeError');
  });

  it('nests spans and correlates logs across awaits', async () => {
    const { client, calls } = makeClient();
    await client.startSpan('parent', async (parent) => {
      await new Promise((r) => setTimeout(r, 1));
      client.logger.info('inside parent');
      await client.startSpan('child', async () => {
        await Promise.resolve();
        client.logger.info('inside child');
        expect(client.activeSpan()?.parentSpanId).toBe(parent.spanId);
      });
    });
    client.logger.info('outside');
    await client.flush();
    const spans = Object.fromEntries(bodiesAt(calls, '/ingest/traces').map((s) => [s.operation, s]));
    expect(spans.child.trace_id).toBe(spans.parent.trace_id);
    expect(spans.child.parent_span_id).toBe(spans.parent.span_id);
    const logs = Object.fromEntries(logsIn(calls).map((l) => [l.message, l]));
    expect(logs['inside parent']).toMatchObject({ trace_id: spans.parent.trace_id, span_id: spans.parent.span_id });
    expect(logs['inside child']).toMatchObject({ trace_id: spans.parent.trace_id, span_id: spans.child.span_id });
    expect(logs.outside.trace_id).toBeUndefined();
  });

  it('manual spans: explicit end, explicit status, ended once, activated with withSpan', async () => {
    const { client, calls } = makeClient();
    const span = client.startManualSpan('queue.consume', { metadata: { queue: 'q1' } });
    expect(client.activeSpan()).toBeUndefined();
    client.withSpan(span, () => client.logger.info('handled'));
    span.setAttribute('messages', 3).setStatus('error');
    span.end();
    span.end();
    const remote = client.startManualSpan('remote-child', { parent: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) } });
    remote.end({ status: 'ok' });
    await client.flush();
    const spans = bodiesAt(calls, '/ingest/traces');
    expect(spans).toHaveLength(2);
    expect(spans[0]).toMatchObject({ operation: 'queue.consume', status: 'error', metadata: { queue: 'q1', messages: 3 } });
    expect(logsIn(calls)[0].span_id).toBe(spans[0].span_id);
    expect(spans[1]).toMatchObject({ trace_id: 'a'.repeat(32), parent_span_id: 'b'.repeat(16) });
  });

  it('traceHeaders() propagates the active span', () => {
    const { client } = makeClient();
    expect(client.traceHeaders()).toEqual({});
    client.startSpan('call', (span) => {
      expect(client.traceHeaders()).toEqual({
        traceparent: `00-${span.traceId}-${span.spanId}-01`,
        'x-trace-id': span.traceId,
        'x-span-id': span.spanId,
      });
    });
  });
});

describe('captureError', () => {
  it('sends message, stack, severity, user, context and breadcrumbs', async () => {
    const { client, calls } = makeClient();
    client.addBreadcrumb({ type: 'navigation', message: '/cart' });
    client.logger.info('added item');
    client.captureError(new RangeError('out of stock'), {
      severity: 'critical',
      userId: 'u-42',
      context: { sku: 'A1' },
      breadcrumbs: [{ type: 'ui', message: 'clicked pay', timestamp: '2024-01-01T00:00:00.000Z' }],
    });
    await client.flush();
    const [report] = bodiesAt(calls, '/ingest/errors');
    expect(report).toMatchObject({
      service: 'checkout',
      environment: 'test',
      release: 'v1',
      error_message: 'out of stock',
      severity: 'critical',
      user_id: 'u-42',
      context: { sku: 'A1', error_type: 'RangeError' },
    });
    expect(report.stack_trace).toContain('RangeError: out of stock');
    expect(report.breadcrumbs.map((b: any) => [b.type, b.message])).toEqual([
      ['navigation', '/cart'],
      ['log', '[info] added item'],
      ['ui', 'clicked pay'],
    ]);
    expect(report.breadcrumbs[2].timestamp).toBe('2024-01-01T00:00:00.000Z');
    expect(report.trace_id).toBeUndefined();
  });

  it('uses the active trace, the scope user and tags; defaults severity to medium', async () => {
    const { client, calls } = makeClient({ tags: { region: 'eu' } });
    client.setUser({ id: 99 });
    client.setTag('tier', 'gold');
    const traceId = client.startSpan('op', (span) => {
      client.captureError('a string was thrown');
      return span.traceId;
    });
    await client.flush();
    const [report] = bodiesAt(calls, '/ingest/errors');
    expect(report).toMatchObject({
      error_message: 'a string was thrown',
      stack_trace: 'a string was thrown',
      severity: 'medium',
      trace_id: traceId,
      user_id: '99',
      context: { region: 'eu', tier: 'gold', error_type: 'string' },
    });
  });

  it('keeps the cause chain in the stack', async () => {
    const { client, calls } = makeClient();
    client.captureError(new Error('outer', { cause: new Error('root cause') }));
    await client.flush();
    expect(bodiesAt(calls, '/ingest/errors')[0].stack_trace).toMatch(/Caused by: Error: root cause/);
  });
});

describe('llmUsage', () => {
  it('maps camelCase to the wire and adds trace ids to metadata', async () => {
    const { client, calls } = makeClient();
    const ids = await client.startSpan('chat', async (span) => {
      client.llmUsage({
        model: 'gpt-4o',
        provider: 'openai',
        operation: 'chat.completion',
        inputTokens: 120,
        outputTokens: 30,
        latencyMs: 812.4,
        costUsd: 0.0021,
        metadata: { feature: 'summary' },
      });
      return span;
    });
    await client.flush();
    expect(bodiesAt(calls, '/ingest/llm')[0]).toEqual({
      service: 'checkout',
      environment: 'test',
      release: 'v1',
      model: 'gpt-4o',
      provider: 'openai',
      operation: 'chat.completion',
      input_tokens: 120,
      output_tokens: 30,
      latency_ms: 812,
      cost_usd: 0.0021,
      metadata: { feature: 'summary', trace_id: ids.traceId, span_id: ids.spanId },
    });
  });
});

describe('client options', () => {
  it('warns once about a malformed key but still sends', async () => {
    const { client, calls, onWarning } = makeClient({ apiKey: 'not-a-key' });
    client.captureError(new Error('x'));
    await client.flush();
    expect(onWarning).toHaveBeenCalledWith(expect.stringContaining('does not look like'));
    expect(calls[0].headers.authorization).toBe('Bearer not-a-key');
  });

  it('truncates a long release and omits it when unset', async () => {
    const long = makeClient({ release: 'x'.repeat(300) });
    long.client.captureError(new Error('x'));
    await long.client.flush();
    expect(long.calls[0].body.release).toHaveLength(128);
    const none = makeClient({ release: undefined });
    none.client.captureError(new Error('x'));
    await none.client.flush();
    expect('release' in none.calls[0].body).toBe(false);
  });

  it('says which option is unknown (a misspelt beforeSend would otherwise be ignored silently), except in production', () => {
    const { onWarning } = makeClient({ beforeSned: () => null } as never);
    expect(onWarning).toHaveBeenCalledWith('unknown option "beforeSned" is ignored (docs/sdk.md#client-options)');
    vi.stubEnv('NODE_ENV', 'production');
    try {
      const prod = makeClient({ beforeSned: () => null } as never);
      expect(prod.onWarning).not.toHaveBeenCalledWith(expect.stringContaining('unknown option'));
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('users', () => {
  it('setUser takes an id or the user fields: the id (else e-mail, else username) is user_id, the rest goes in context.user', async () => {
    const { client, calls } = makeClient();
    client.setUser({ id: 7, email: 'ada@example.com', username: 'ada', plan: 'pro' });
    client.captureError(new Error('one'));
    client.setUser({ email: 'bob@example.com' });
    client.captureError(new Error('two'));
    client.setUser(42);
    client.captureError(new Error('three'));
    client.setUser(null);
    client.captureError(new Error('four'));
    await client.flush();
    const reports = bodiesAt(calls, '/ingest/errors');
    expect(reports.map((r) => [r.user_id, r.context.user])).toEqual([
      ['7', { email: 'ada@example.com', username: 'ada', plan: 'pro' }],
      ['bob@example.com', { email: 'bob@example.com' }],
      ['42', undefined],
      [undefined, undefined],
    ]);
  });
});
