import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '@devtrail/access';
import { httpError } from '@devtrail/http';
import type { SessionView, User, UsersRepo } from '@devtrail/relational-store';
import { credentialsBody, loginBody, memberBody, memberParams } from './auth-schemas.ts';
import { CsrfError, csrfMatches, isMutating, newToken, CSRF_HEADER } from './csrf.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.ts';
import { loginLimiter } from './login-limiter.ts';
import { sessionOf, userPrincipal } from './session-authenticator.ts';
import {
  PRE_SESSION_COOKIE,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  clearPreSessionCookie,
  clearSessionCookie,
  readCookie,
  setPreSessionCookie,
  setSessionCookie,
} from './session-cookie.ts';

// /auth: first-visit owner setup, login, logout, the current user, and (owner only)
// users and project membership. Every mutating route checks a CSRF token: the
// session's, or before login the double-submit pre-session cookie's.

export interface AuthRouteOptions {
  /** What the UI needs to know about this deployment (shown by /auth/me). */
  uiConfig: Record<string, unknown>;
}

const userJson = (u: User) => ({ id: u.id, username: u.username, is_owner: u.isOwner, created_at: u.createdAt });

export function registerAuthRoutes(app: FastifyInstance, users: UsersRepo, opts: AuthRouteOptions): void {
  const limiter = loginLimiter(users);

  // Checked in onRequest, before a body is even parsed; the route reads the session back.
  const sessions = new WeakMap<FastifyRequest, SessionView>();
  const session = (request: FastifyRequest) => sessions.get(request)!;
  const signedIn =
    (ownerOnly = false) =>
    async (request: FastifyRequest) => {
      const s = await sessionOf(users, request);
      if (!s) throw httpError(401, 'Not logged in');
      if (isMutating(request.method) && !csrfMatches(s.csrfToken, request)) throw new CsrfError();
      if (ownerOnly && !s.user.isOwner) throw httpError(403, 'Only the owner may do this');
      sessions.set(request, s);
    };
  /** Before login: the X-CSRF-Token header must equal the pre-session cookie (double submit). */
  const preSessionCsrf = async (request: FastifyRequest) => {
    const pre = readCookie(request, PRE_SESSION_COOKIE);
    const given = request.headers[CSRF_HEADER];
    if (!pre || typeof given !== 'string' || !safeEqual(given, pre)) throw new CsrfError();
  };
  const startSession = async (request: FastifyRequest, reply: FastifyReply, user: User) => {
    const old = readCookie(request, SESSION_COOKIE);
    if (old) await users.deleteSession(old); // never keep a token that existed before login
    const token = newToken();
    await users.createSession(user.id, token, newToken(), new Date(Date.now() + SESSION_TTL_MS));
    setSessionCookie(request, reply, token);
    clearPreSessionCookie(request, reply);
    await users.deleteExpiredSessions();
  };

  app.register(async (auth) => {
    auth.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    auth.get('/auth/me', async (request, reply) => {
      const session = await sessionOf(users, request);
      let csrf = session?.csrfToken;
      if (!csrf) {
        csrf = readCookie(request, PRE_SESSION_COOKIE) ?? newToken();
        setPreSessionCookie(request, reply, csrf);
      }
      const setupNeeded = session ? false : (await users.count()) === 0;
      return { user: session ? userJson(session.user) : null, csrf_token: csrf, setup_needed: setupNeeded, config: opts.uiConfig };
    });

    auth.post('/auth/setup', { onRequest: preSessionCsrf }, async (request, reply) => {
      const body = credentialsBody.parse(request.body);
      const owner = await users.createOwner(body.username, await hashPassword(body.password));
      if (!owner) throw httpError(409, 'The owner account exists already; log in instead');
      await startSession(request, reply, owner);
      return reply.code(201).send({ user: userJson(owner) });
    });

    auth.post('/auth/login', { onRequest: preSessionCsrf }, async (request, reply) => {
      const body = loginBody.parse(request.body);
      const wait = await limiter.retryAfter(body.username, request.ip);
      if (wait > 0) return reply.code(429).header('retry-after', String(wait)).send({ error: 'Too many failed logins; try again later' });
      const user = await users.findByUsername(body.username);
      const ok = await verifyPassword(body.password, user?.passwordHash ?? (await dummyPasswordHash()));
      if (!user || !ok) {
        await limiter.failed(body.username, request.ip);
        throw httpError(401, 'Invalid username or password');
      }
      await limiter.succeeded(body.username, request.ip);
      await startSession(request, reply, user);
      return { user: userJson(user) };
    });

    auth.post('/auth/logout', { onRequest: signedIn() }, async (request, reply) => {
      await users.deleteSession(readCookie(request, SESSION_COOKIE)!);
      clearSessionCookie(request, reply);
      return { ok: true };
    });

    auth.get('/auth/users', { onRequest: signedIn(true) }, async () => {
      return { users: (await users.list()).map(userJson) };
    });

    auth.post('/auth/users', { onRequest: signedIn(true) }, async (request, reply) => {
      const body = credentialsBody.parse(request.body);
      const user = await users.create(body.username, await hashPassword(body.password));
      if (!user) throw httpError(409, 'That username is taken');
      return reply.code(201).send({ user: userJson(user) });
    });

    auth.get('/auth/projects/:id/members', { onRequest: signedIn() }, async (request) => {
      const { id } = memberParams.parse(request.params);
      if (!(await userPrincipal(users, session(request).user).canAccess(id))) throw httpError(404, 'Project not found');
      return { members: (await users.membersOf(id)).map(userJson) };
    });

    auth.post('/auth/projects/:id/members', { onRequest: signedIn(true) }, async (request, reply) => {
      const { id } = memberParams.parse(request.params);
      const { username } = memberBody.parse(request.body);
      const user = await users.findByUsername(username);
      if (!user) throw httpError(404, 'No such user');
      if (!(await users.addMember(id, user.id))) throw httpError(404, 'Project not found');
      return reply.code(201).send({ members: (await users.membersOf(id)).map(userJson) });
    });

    auth.delete('/auth/projects/:id/members/:userId', { onRequest: signedIn(true) }, async (request) => {
      const { id, userId } = memberParams.parse(request.params);
      await users.removeMember(id, userId!);
      return { members: (await users.membersOf(id)).map(userJson) };
    });
  });
}
