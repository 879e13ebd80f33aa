import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '@devtrail/config';
import { MAX_ID_LENGTH } from '@devtrail/kinds';
import { createHttpApp } from '@devtrail/http';
import { embeddedAdapters } from '../../../test/support/embedded-adapters.ts';
import { registerControlPlane } from '../src/index.ts';

// Admin and read API inputs the stores cannot take, and ids they do not know: a clear
// 4xx JSON answer (the 400 body of docs/api.md or {error}), never a 5xx or a router's own body.
const OPERATOR = 'dto_operator_token_for_inputs_0123456789';
let app: FastifyInstance;
let close: () => Promise<void>;
let project: string;

beforeAll(async () => {
  const adapters = await embeddedAdapters();
  const logger = createLogger('silent', 'api-inputs-test');
  app = await createHttpApp(logger, 1024 * 1024);
  await registerControlPlane(app, adapters, logger, { operatorToken: OPERATOR, defaultRateLimitPerMinute: 5000, defaultRetentionDays: 30, deletionGraceMs: 1000 });
  await app.ready();
  close = async () => {
    await app.close();
    await adapters.close();
  };
  project = (await call('POST', '/api/admin/projects', { name: 'inputs' })).json().project.id;
});
afterAll(async () => close());

function call(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${OPERATOR}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

const issuePaths = (res: { json(): { error: { issues: Array<{ path: unknown[] }> } } }) => res.json().error.issues.map((i) => i.path.join('.'));

describe('admin API inputs', () => {
  it('refuses a NUL character in a project name or drain secret with a 400 naming the field', async () => {
    const name = await call('POST', '/api/admin/projects', { name: 'a\u0000b' });
    expect(name.statusCode).toBe(400);
    expect(issuePaths(name)).toEqual(['name']);
    const secret = await call('PUT', `/api/admin/projects/${project}/drain-secret`, { secret: 'secret\u0000secret' });
    expect(secret.statusCode).toBe(400);
    expect(issuePaths(secret)).toEqual(['secret']);
  });

  it('counts a minimum length in characters, as the document does: an emoji is one, not two UTF-16 units', async () => {
    const seven = await call('PUT', `/api/admin/projects/${project}/drain-secret`, { secret: '\u00abKP\u00b5\u{2ef3b}\u{105c85}\u00cf' });
    expect(seven.statusCode).toBe(400);
    expect(issuePaths(seven)).toEqual(['secret']);
    expect((await call('PUT', `/api/admin/projects/${project}/drain-secret`, { secret: '\u00abKP\u00b5\u{2ef3b}\u{105c85}\u00cfx' })).statusCode).toBe(200);
  });

  it('refuses a NUL character in a scrubbing pattern, an alert rule or its webhook with a 400; a pattern writes it as \\x00', async () => {
    const scrubbing = await call('PUT', `/api/admin/projects/${project}/scrubbing`, { rules: [{ match: 'email' }, { match: 'regex', pattern: '\u0000\u00d6' }] });
    expect(scrubbing.statusCode).toBe(400);
    expect(issuePaths(scrubbing)).toEqual(['rules.1.pattern']);
    const escaped = await call('PUT', `/api/admin/projects/${project}/scrubbing`, { rules: [{ match: 'regex', pattern: '\\x00\u00d6' }] });
    expect(escaped.statusCode).toBe(200);
    expect(escaped.json().policy.scrubbing.rules[0].pattern).toBe('\\x00\u00d6');
    const rule = { name: 'nul', type: 'new_group', destinations: [{ type: 'webhook', url: 'https://hooks.example.com/x' }] };
    const name = await call('POST', `/api/projects/${project}/alert-rules`, { ...rule, name: 'a\u0000b' });
    expect(name.statusCode).toBe(400);
    expect(issuePaths(name)).toEqual(['name']);
    const url = await call('POST', `/api/projects/${project}/alert-rules`, { ...rule, destinations: [{ type: 'webhook', url: 'https://hooks.example.com/a\u0000b' }] });
    expect(url.statusCode).toBe(400);
    expect(issuePaths(url)).toEqual(['destinations.0.url']);
  });

  it('answers a bad origin with the zod-shaped 400 body, pointing at the entry', async () => {
    const res = await call('PUT', `/api/admin/projects/${project}/allowed-origins`, { origins: ['example.com', 'http://x/y'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      error: {
        name: 'ZodError',
        issues: [
          {
            code: 'invalid_string',
            path: ['origins', 1],
            message: 'must be a domain (example.com), a wildcard (*.example.com) or an http(s) origin (https://app.example.com)',
          },
        ],
      },
    });
  });
});

describe('read API inputs', () => {
  it('answers 404 for a project id that does not exist, on every read', async () => {
    const unknown = randomUUID();
    for (const path of ['logs', 'errors', 'error-groups', 'traces', 'spans', 'llm-usage', 'ingestion']) {
      const res = await call('GET', `/api/projects/${unknown}/${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json(), path).toEqual({ error: 'Project not found' });
    }
  });

  it(`bounds trace ids at ${MAX_ID_LENGTH} characters with a 400 JSON answer, in the path and the query`, async () => {
    expect((await call('GET', `/api/projects/${project}/traces/${'a'.repeat(MAX_ID_LENGTH)}`)).statusCode).toBe(404); // valid id, no such trace
    for (const url of [`/api/projects/${project}/traces/${'a'.repeat(MAX_ID_LENGTH + 1)}`, `/api/projects/${project}/logs?trace_id=${'a'.repeat(MAX_ID_LENGTH + 1)}`]) {
      const res = await call('GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().success).toBe(false);
    }
    const absurd = await call('GET', `/api/projects/${project}/traces/${'a'.repeat(5000)}`);
    expect(absurd.statusCode).toBeGreaterThanOrEqual(400);
    expect(absurd.statusCode).toBeLessThan(500);
    expect(absurd.json().error).toBeDefined();
  });

  it('checks the level parameter against the four levels, as the document declares', async () => {
    expect((await call('GET', `/api/projects/${project}/logs?level=warn,error`)).statusCode).toBe(200);
    const bad = await call('GET', `/api/projects/${project}/logs?level=fatal`);
    expect(bad.statusCode).toBe(400);
    expect(issuePaths(bad)).toEqual(['level']);
  });

  it('takes a whole number in the query in decimal digits only, as the document declares an integer', async () => {
    const traces = `/api/projects/${project}/traces`;
    expect((await call('GET', `${traces}?min_duration_ms=0&max_duration_ms=0012&limit=50`)).statusCode).toBe(200);
    for (const [param, value] of [
      ['min_duration_ms', ''],
      ['max_duration_ms', '1e3'],
      ['limit', '0x10'],
      ['limit', ' 7'],
      ['limit', '2.5'],
      ['min_duration_ms', '-1'],
      ['min_duration_ms', '99999999999999999'],
    ]) {
      const res = await call('GET', `${traces}?${param}=${encodeURIComponent(value)}`);
      expect(res.statusCode, `${param}=${value}`).toBe(400);
      expect(issuePaths(res), `${param}=${value}`).toEqual([param]);
    }
  });
});
