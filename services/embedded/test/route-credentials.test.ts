import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedOpenApi } from '../src/openapi.ts';
import { createLogger, loadConfig } from '@devtrail/config';
import { ERRORS } from '@devtrail/http';
import { projectsRepo, usersRepo } from '@devtrail/relational-store';
import { startEmbedded, type Embedded } from '../src/embedded.ts';
import { ONLY_ADMINS } from '../../dashboard/src/llm-prices/routes.ts';

// docs/security.md's credential table, held against every route the embedded process serves
// (the receiver's, the dashboard's and the UI's: the union of the distributed services). Each
// registered route is called with each credential; whether it let the caller through (anything
// but a refusal of who they are) must be what the table says. A route the table does not place
// fails the suite, so a new route needs a row.

type Credential = 'nothing' | 'ingest key' | 'viewer' | 'member' | 'owner' | 'operator';
const ALL: Credential[] = ['nothing', 'ingest key', 'viewer', 'member', 'owner', 'operator'];
const SESSIONS: Credential[] = ['viewer', 'member', 'owner'];

/** The table, route by route: first match wins. `/api/*` routes are about the one project every session here belongs to. */
const TABLE: Array<{ method?: RegExp; path: RegExp; who: Credential[]; row: string }> = [
  { path: /^\/(health|health\/ready|openapi\.json)$|^\/schemas\//, who: ALL, row: 'health, the OpenAPI document and the schemas: public' },
  { method: /^(GET|POST)$/, path: /^\/auth\/(me|login|setup|login-link)$/, who: ALL, row: 'the login and setup pages and their calls: public' },
  { method: /^POST$/, path: /^\/auth\/login-links$/, who: ['operator'], row: 'login links: the operator' },
  { method: /^POST$/, path: /^\/auth\/(logout|password)$/, who: SESSIONS, row: 'one’s own session and password: any signed-in user' },
  { method: /^GET$/, path: /^\/auth\/projects\/:id\/members$/, who: SESSIONS, row: 'the members of a project one sees: any signed-in user' },
  { path: /^\/auth\/(users|projects\/:id\/members)/, who: ['owner'], row: 'users and membership: the owner' },
  { method: /^POST$/, path: /^\/(ingest|v1)\//, who: ['ingest key'], row: 'ingestion: the ingest key' },
  { method: /^GET$/, path: /^\/ingest\/prompts\//, who: ['ingest key'], row: 'prompts as the SDK reads them: the ingest key' },
  // Source maps: never the ingest key; an upload token (not a column here) is held in services/dashboard/test/source-map-credentials.test.ts.
  {
    method: /^(POST|DELETE)$/,
    path: /^\/api\/projects\/:id\/source-maps$/,
    who: ['member', 'owner', 'operator'],
    row: 'source maps: member, owner, operator',
  },
  {
    method: /^GET$/,
    path: /^\/api\/projects\/:id\/source-maps$/,
    who: ['viewer', 'member', 'owner', 'operator'],
    row: 'source maps: every reader',
  },
  { method: /^(PUT|DELETE)$/, path: /^\/api\/admin\/llm-prices\//, who: ['owner', 'operator'], row: 'LLM prices, deployment-wide: the owner, the operator' },
  { method: /^GET$/, path: /^\/ui\/vendor\//, who: ALL, row: 'the UI’s pages and files: public' },
  { method: /^GET$/, path: /^\/(api|ui)\//, who: ['viewer', 'member', 'owner', 'operator'], row: 'reads: viewer, member, owner, operator' },
  { path: /^\/api\//, who: ['member', 'owner', 'operator'], row: 'writes: member, owner, operator' },
  { method: /^GET$/, path: /^\/(?!api\/|auth\/|ingest\/|v1\/|ui\/|metrics$)/, who: ALL, row: 'the UI’s pages and files: public' },
];

const OPERATOR = 'dto_route_credentials_operator_0123456789';
const ZERO = '00000000-0000-4000-8000-000000000000';

/** Every method and full path the app serves, from Fastify's route tree (HEAD, OPTIONS and /metrics aside: /metrics is loopback-or-token, libs/metrics/test). */
function routesOf(app: FastifyInstance): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    const path = stack.join('');
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) if (method !== 'HEAD' && method !== 'OPTIONS' && path !== '/metrics') out.push({ method, path });
  }
  return out;
}

/** A browser at one address: its cookies, and the CSRF token /auth/me hands out. */
class Jar {
  cookies = new Map<string, string>();
  csrf = '';
  constructor(private app: FastifyInstance) {}
  async call(method: string, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: method as 'GET',
      url,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': this.csrf,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
      if (c.maxAge === 0 || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }
  async me() {
    this.csrf = (await this.call('GET', '/auth/me')).json().csrf_token;
  }
}

/** Whether an answer refused the caller for who they are (not for what they sent). */
function refused(r: LightMyRequestResponse): boolean {
  if (r.statusCode === 401) return true;
  const error = (() => {
    try {
      return String(r.json().error ?? '');
    } catch {
      return '';
    }
  })();
  // (A missing CSRF token is not about who calls: the sessions here always send theirs.)
  if (r.statusCode === 403) return [ERRORS.noPrincipal, ERRORS.readOnly, 'Only the owner may do this', ONLY_ADMINS].includes(error);
  return r.statusCode === 404 && /^Project not found/.test(error);
}

let dt: Embedded;
let dir: string;
const accounts = new Map<Credential, string>();

/** A browser signed in as the account, with a session of its own (a call may end it: logout). */
async function signedIn(who: Credential): Promise<Jar> {
  const jar = new Jar(dt.app);
  const userId = accounts.get(who);
  if (!userId) return jar;
  const [token, csrf] = [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')];
  await usersRepo(dt.adapters.relational).createSession(userId, token, csrf, new Date(Date.now() + 3600_000));
  jar.cookies.set('__Host-dt_session', token);
  jar.csrf = csrf;
  return jar;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dt-routes-'));
  const config = loadConfig({ DEVTRAIL_MODE: 'embedded', DEVTRAIL_DATA_DIR: dir, PORT: '0', DEVTRAIL_OPERATOR_TOKEN: OPERATOR, RATE_LIMIT_PER_MINUTE: '1000000' });
  dt = await startEmbedded(config, createLogger('silent', 'route-credentials'));
  // The accounts straight in the store: no password is hashed (the login routes themselves are
  // tested in services/dashboard/test/login-defences.test.ts).
  const users = usersRepo(dt.adapters.relational);
  for (const role of ['owner', 'member', 'viewer'] as const) {
    const user = role === 'owner' ? await users.createOwner(role, 'not-a-hash', null) : await users.create(role, 'not-a-hash', role);
    accounts.set(role, user!.id);
  }
}, 300_000);
afterAll(async () => {
  await dt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("every route holds to docs/security.md's credential table", () => {
  it('each credential is let through exactly where the table says', async () => {
    const users = usersRepo(dt.adapters.relational);
    const projects = projectsRepo(dt.adapters.relational);
    const ids = { member: accounts.get('member')!, viewer: accounts.get('viewer')! };
    // A project of its own for every call that may change one (a deletion, a new key), shared by reads.
    const newProject = async () => {
      const { project, apiKey } = await projects.create('routes', 1_000_000);
      for (const id of Object.values(ids)) await users.addMember(project.id, id);
      return { id: project.id, key: apiKey };
    };
    const shared = await newProject();
    const routes = routesOf(dt.app);
    expect(routes.length).toBeGreaterThan(50);
    const unplaced: string[] = [];
    const wrong: string[] = [];
    for (const { method, path } of routes) {
      const rule = TABLE.find((r) => (r.method ?? /./).test(method) && r.path.test(path));
      if (!rule) {
        unplaced.push(`${method} ${path}`);
        continue;
      }
      for (const who of ALL) {
        const p = method === 'GET' ? shared : await newProject();
        const url = path
          .replace(/:id\b/, p.id)
          .replace(/:[A-Za-z]+/g, ZERO)
          .replace(/\*$/, 'x');
        // An empty object: enough to pass the door, and a 400 for most bodies (nothing is created).
        const body = method === 'GET' || method === 'DELETE' ? undefined : {};
        const headers: Record<string, string> =
          who === 'operator' ? { authorization: `Bearer ${OPERATOR}` } : who === 'ingest key' ? { authorization: `Bearer ${p.key}` } : {};
        const jar = await signedIn(who);
        const r = await jar.call(method, url, body, headers);
        const through = !refused(r);
        if (through !== rule.who.includes(who)) wrong.push(`${method} ${path} with ${who}: ${r.statusCode} ${r.body.slice(0, 120)} (table: ${rule.row})`);
      }
    }
    console.log(`${routes.length} routes x ${ALL.length} credentials checked`);
    expect(unplaced, 'routes the credential table does not place').toEqual([]);
    expect(wrong).toEqual([]);
  }, 300_000);
});

describe('the published document and the served routes', () => {
  it('are the same /api routes: each is declared once, served and documented from one declaration', () => {
    const doc = publishedOpenApi() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const served = routesOf(dt.app)
      .filter((r) => r.path.startsWith('/api/'))
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(new Set(served)).toEqual(new Set(documented));
  });
});
