import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '@devtrail/config';
import { createHttpApp } from '@devtrail/http';
import { embeddedAdapters } from '../../../test/support/embedded-adapters.ts';
import { registerControlPlane } from '../src/index.ts';

// Who may touch source maps (docs/security.md, "Credentials"): the operator, a member and a
// project's upload token; never the project's API key, which ships in browsers. Every
// source-map and upload-token route is held to that table here, through the front door
// (inject) over the embedded adapters (PGlite, chdb).

const OPERATOR = 'dto_operator_token_for_source_map_access_01';
let app: FastifyInstance;
let close: () => Promise<void>;
const projects: Array<{ id: string; key: string }> = [];

const MAP = { version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA' };
function call(method: 'GET' | 'POST' | 'DELETE', url: string, token: string, body?: unknown) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
const maps = (p: string) => `/api/projects/${p}/source-maps`;
const upload = (p: string, token: string, url = '~/static/a.js') => call('POST', maps(p), token, { release: 'r1', url, source_map: MAP });
async function newToken(p: string, name = 'ci'): Promise<{ id: string; token: string }> {
  const res = await call('POST', `/api/projects/${p}/upload-tokens`, OPERATOR, { name });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().upload_token.id, token: res.json().token };
}

beforeAll(async () => {
  const adapters = await embeddedAdapters();
  const logger = createLogger('silent', 'source-map-access-test');
  app = await createHttpApp(logger, 1024 * 1024);
  await registerControlPlane(app, adapters, logger, { operatorToken: OPERATOR, defaultRateLimitPerMinute: 5000, defaultRetentionDays: 30, deletionGraceMs: 1000 });
  await app.ready();
  close = async () => {
    await app.close();
    await adapters.close();
  };
  for (const name of ['a', 'b']) {
    const res = (await call('POST', '/api/admin/projects', OPERATOR, { name })).json();
    projects.push({ id: res.project.id, key: res.api_key });
  }
});
afterAll(async () => close?.());

describe('source maps: the API key ingests, nothing else', () => {
  it('the project key is refused on every source-map route (401), and changes nothing', async () => {
    const [a] = projects;
    expect((await upload(a.id, OPERATOR)).statusCode).toBe(201);
    for (const [method, url, body] of [
      ['POST', maps(a.id), { release: 'r1', url: '~/static/a.js', source_map: MAP }],
      ['GET', `${maps(a.id)}?release=r1`, undefined],
      ['DELETE', `${maps(a.id)}?release=r1&url=~/static/a.js`, undefined],
      ['GET', `/api/projects/${a.id}/upload-tokens`, undefined],
      ['POST', `/api/projects/${a.id}/upload-tokens`, { name: 'mine' }],
    ] as const) {
      const res = await call(method, url, a.key, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await call('GET', `${maps(a.id)}?release=r1`, OPERATOR)).json().source_maps).toHaveLength(1);
  });

  it('an upload token uploads, replaces, lists and deletes its own project’s maps, and nothing else', async () => {
    const [a, b] = projects;
    const { token } = await newToken(a.id);
    expect(token).toMatch(/^dtu_[0-9a-f]{40}$/);
    expect((await upload(a.id, token, '~/static/t.js')).statusCode).toBe(201);
    expect((await upload(a.id, token, '~/static/t.js')).statusCode).toBe(201); // a replacement
    expect((await call('GET', `${maps(a.id)}?release=r1`, token)).json().source_maps.map((m: { url: string }) => m.url)).toContain('~/static/t.js');
    expect((await call('DELETE', `${maps(a.id)}?release=r1&url=~/static/t.js`, token)).json()).toEqual({ deleted: 1 });
    // Another project: as if it did not exist.
    expect((await upload(b.id, token)).statusCode).toBe(404);
    expect((await call('GET', maps(b.id), token)).statusCode).toBe(404);
    // Not a way into anything else: reads, settings, tokens, the admin API.
    for (const [method, url] of [
      ['GET', `/api/projects/${a.id}/logs?from=0&to=1`],
      ['GET', `/api/projects/${a.id}/upload-tokens`],
      ['POST', `/api/projects/${a.id}/upload-tokens`],
      ['GET', `/api/admin/projects/${a.id}`],
      ['POST', `/api/admin/projects/${a.id}/revoke-key`],
    ] as const) {
      expect((await call(method, url, token, method === 'POST' ? { name: 'x' } : undefined)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('a token is listed by its prefix only, and stops working the moment it is revoked', async () => {
    const [a] = projects;
    const { id, token } = await newToken(a.id, 'to revoke');
    const listed = (await call('GET', `/api/projects/${a.id}/upload-tokens`, OPERATOR)).json().upload_tokens;
    const mine = listed.find((t: { id: string }) => t.id === id);
    expect(mine).toMatchObject({ name: 'to revoke', prefix: token.slice(0, 8) });
    expect(JSON.stringify(listed)).not.toContain(token);
    expect((await upload(a.id, token)).statusCode).toBe(201);
    expect((await call('DELETE', `/api/projects/${a.id}/upload-tokens/${id}`, OPERATOR)).statusCode).toBe(204);
    expect((await upload(a.id, token)).statusCode).toBe(401);
    expect((await call('DELETE', `/api/projects/${a.id}/upload-tokens/${id}`, OPERATOR)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/projects/${a.id}/upload-tokens/not-a-uuid`, OPERATOR)).statusCode).toBe(400);
  });
});
