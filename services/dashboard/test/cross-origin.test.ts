import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authApp, type AuthApp } from './support/inject-browser.ts';

// The dashboard's /auth and /api routes are same-origin only (docs/security.md#sessions-and-roles):
// a page on another site gets no Origin reflected and no preflight approved, so it can neither
// read an answer nor send X-CSRF-Token. The ingest routes' CORS is docs/api.md's (receiver tests).
let t: AuthApp;
beforeAll(async () => {
  t = await authApp();
});
afterAll(async () => t?.close());

const stranger = 'https://evil.example';

describe('CORS on the dashboard routes', () => {
  for (const [method, url] of [
    ['POST', '/auth/login'],
    ['POST', '/auth/setup'],
    ['PATCH', '/auth/users/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/admin/projects'],
    ['DELETE', '/api/projects/00000000-0000-4000-8000-000000000000/source-maps'],
  ] as const) {
    it(`a preflight for ${method} ${url} from another site is not approved`, async () => {
      const r = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: stranger, 'access-control-request-method': method, 'access-control-request-headers': 'x-csrf-token,content-type' },
      });
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
      expect(r.headers['access-control-allow-headers']).toBeUndefined();
      expect(r.headers['access-control-allow-credentials']).toBeUndefined();
      expect(r.statusCode).toBeGreaterThanOrEqual(400);
    });
  }

  it('an answer to another site carries no Access-Control-Allow-Origin', async () => {
    for (const url of ['/auth/me', '/api/admin/projects', '/metrics', '/openapi.json']) {
      const r = await t.app.inject({ method: 'GET', url, headers: { origin: stranger } });
      expect(r.headers['access-control-allow-origin'], url).toBeUndefined();
    }
  });
});
