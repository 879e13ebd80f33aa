import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectsRepo } from '@devtrail/relational-store';
import { receiverHarness, type Harness } from './harness.ts';

// docs/api.md: keys, revocation, origins, CORS preflight and rate limits.
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const body = JSON.stringify({ logs: [{ level: 'info', message: 'x' }] });
const post = (headers: Record<string, string>, url = '/ingest/logs') =>
  h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: body });
const UNAUTHORIZED = JSON.stringify({ error: 'Missing or invalid API key' });

describe('authentication', () => {
  it.each([
    ['no header', {}],
    ['a malformed key', { authorization: 'Bearer dt_123' }],
    ['an unknown key', { authorization: `Bearer dt_${'0'.repeat(24)}` }],
    ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
  ])('answers 401 with the documented body for %s', async (_name, headers) => {
    const res = await post(headers as Record<string, string>);
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe(UNAUTHORIZED);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('needs a key on every /ingest endpoint, and none on health', async () => {
    for (const url of ['/ingest/logs', '/ingest/errors', '/ingest/traces', '/ingest/llm', '/ingest/drain']) {
      expect((await post({}, url)).statusCode).toBe(401);
    }
    expect((await h.app.inject({ url: '/health' })).json()).toEqual({ status: 'ok', timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    const ready = await h.app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks).toMatchObject({ kafka: { status: 'up' }, clickhouse: { status: 'up' }, postgres: { status: 'up' } });
  });

  it('stops a revoked key at once, in spite of the cache, and the new key works', async () => {
    const p = await h.newProject('revoke-me');
    expect((await post({ authorization: `Bearer ${p.key}` })).statusCode).toBe(200); // now cached
    const next = await projectsRepo(h.adapters.relational).revokeKey(p.id);
    await expect.poll(async () => (await post({ authorization: `Bearer ${p.key}` })).statusCode, { timeout: 2000 }).toBe(401);
    expect((await post({ authorization: `Bearer ${next}` })).statusCode).toBe(200);
  });
});

describe('allowed origins', () => {
  it('allows every origin while the list is empty', async () => {
    expect((await post({ authorization: `Bearer ${h.project.key}`, origin: 'https://anything.example' })).statusCode).toBe(200);
  });

  it('answers 403 with the documented body for a foreign origin, and lets listed and origin-less requests through', async () => {
    const p = await h.newProject('origins');
    await projectsRepo(h.adapters.relational).setAllowedOrigins(p.id, ['shop.example.com', '*.example.org', 'https://admin.example.net']);
    const auth = { authorization: `Bearer ${p.key}` };
    const foreign = await post({ ...auth, origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).toBe(JSON.stringify({ error: 'Origin not allowed' }));
    expect((await post({ ...auth, origin: 'https://shop.example.com' })).statusCode).toBe(200);
    expect((await post({ ...auth, origin: 'http://shop.example.com:8080' })).statusCode).toBe(200);
    expect((await post({ ...auth, origin: 'https://a.example.org' })).statusCode).toBe(200);
    expect((await post({ ...auth, origin: 'https://example.org' })).statusCode).toBe(403);
    expect((await post({ ...auth, origin: 'https://admin.example.net' })).statusCode).toBe(200);
    expect((await post({ ...auth, origin: 'http://admin.example.net' })).statusCode).toBe(403);
    expect((await post({ ...auth, origin: 'null' })).statusCode).toBe(403);
    expect((await post(auth)).statusCode).toBe(200);
  });

  it('answers CORS preflight so browsers can send the Bearer header', async () => {
    const res = await h.app.inject({
      method: 'OPTIONS',
      url: '/ingest/logs',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(res.headers['access-control-allow-headers'])).toMatch(/authorization/);
    expect(String(res.headers['access-control-allow-methods'])).toMatch(/POST/);
  });
});

describe('rate limit', () => {
  it('puts the headers on every answer and refuses past the limit with 429 and Retry-After', async () => {
    const p = await h.newProject('limited', 5);
    const auth = { authorization: `Bearer ${p.key}` };
    const codes: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await post(auth);
      codes.push(last.statusCode);
      expect(last.headers['x-ratelimit-limit']).toBe('5');
      expect(Number(last.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last!.body).toBe(JSON.stringify({ error: 'Rate limit exceeded' }));
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    // A 400 still carries the headers (it counted).
    const other = await h.newProject('limited-2', 100);
    const bad = await h.app.inject({
      method: 'POST',
      url: '/ingest/logs',
      headers: { authorization: `Bearer ${other.key}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['x-ratelimit-remaining']).toBe('99');
  });

  it('uses the per-project limit set by the operator', async () => {
    const p = await h.newProject('custom-limit', 100);
    await projectsRepo(h.adapters.relational).setRateLimit(p.id, 2);
    const auth = { authorization: `Bearer ${p.key}` };
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await post(auth)).statusCode);
    expect(codes).toEqual([200, 200, 429]);
  });
});

describe('outcome counters', () => {
  it('counts accepted events per kind and refused requests per status at /metrics', async () => {
    const before = (await h.app.inject({ url: '/metrics', headers: { accept: 'application/json' } })).json().receiver;
    await post({ authorization: `Bearer ${h.project.key}` });
    await post({});
    const after = (await h.app.inject({ url: '/metrics', headers: { accept: 'application/json' } })).json().receiver;
    expect(after.accepted_events.log).toBe(before.accepted_events.log + 1);
    expect(after.refused_requests['401']).toBe((before.refused_requests['401'] ?? 0) + 1);
  });
});

describe('rate limit changes', () => {
  it('applies a raised limit within the current window', async () => {
    const p = await h.newProject('raise-me', 100);
    await projectsRepo(h.adapters.relational).setRateLimit(p.id, 1);
    const auth = { authorization: `Bearer ${p.key}` };
    expect([(await post(auth)).statusCode, (await post(auth)).statusCode]).toEqual([200, 429]);
    await projectsRepo(h.adapters.relational).setRateLimit(p.id, 100);
    await expect.poll(async () => (await post(auth)).statusCode, { timeout: 2000 }).toBe(200);
  });
});
