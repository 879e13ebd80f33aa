import type { FastifyInstance } from 'fastify';
import { safeEqual } from '@devtrail/access';
import { httpError } from '@devtrail/http';
import type { UsersRepo } from '@devtrail/relational-store';
import { loginBody, passwordChangeBody, setupBody } from './auth-schemas.ts';
import { authGuards, userJson } from './auth-guards.ts';
import { newToken } from './csrf.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { decoyCheck, hashPassword, needsRehash, verifyPassword } from './password.ts';
import type { Sessions } from './sessions.ts';
import { canonicalSetupCode } from './setup-code.ts';
import { registerLoginLinkRoutes } from './login-link.ts';
import { registerUserRoutes } from './user-routes.ts';

// /auth: claiming a fresh install (setup), login, logout, the current user, changing one's
// password; user-routes.ts adds the owner's users and project membership. Every mutating
// route checks a CSRF token: the session's, or before login the double-submit pre-session
// cookie's. Password hashing only ever happens after the cheap checks (an owner exists, the
// setup code, the login throttle) passed (docs/security.md).

export interface AuthRouteOptions {
  /** What the UI needs to know about this deployment (shown by /auth/me). */
  uiConfig: Record<string, unknown>;
  /** Accepted in place of a setup code. */
  operatorToken: string | undefined;
  /** Runs once the owner account exists (the setup code file is removed). */
  onOwnerCreated?: () => void;
}

export const INVALID_SETUP_CODE = 'Invalid or expired setup code: use the code devtrail printed at start (also in <DEVTRAIL_DATA_DIR>/setup-code), or the operator token';

export function registerAuthRoutes(app: FastifyInstance, users: UsersRepo, sessions: Sessions, limiter: LoginLimiter, opts: AuthRouteOptions): void {
  const guards = authGuards(sessions);
  const { signedIn, session, preSessionCsrf } = guards;

  app.register(async (auth) => {
    auth.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    auth.get('/auth/me', async (request, reply) => {
      const current = await sessions.of(request);
      let csrf = current?.csrfToken;
      if (!csrf) {
        csrf = sessions.cookies.read(request, 'preSession') ?? newToken();
        sessions.cookies.set(reply, 'preSession', csrf, 3600_000);
      }
      const setupNeeded = current ? false : !(await users.ownerExists());
      return { user: current ? userJson(current.user) : null, csrf_token: csrf, setup_needed: setupNeeded, config: opts.uiConfig };
    });

    auth.post('/auth/setup', { onRequest: preSessionCsrf }, async (request, reply) => {
      const body = setupBody.parse(request.body);
      const taken = () => httpError(409, 'The owner account exists already; log in instead');
      // Cheap checks first: no password is hashed for a request that cannot succeed.
      if (await users.ownerExists()) throw taken();
      const byOperator = opts.operatorToken !== undefined && safeEqual(body.setup_code, opts.operatorToken);
      const code = byOperator ? null : canonicalSetupCode(body.setup_code);
      if (code !== null && !(await users.setupCodeValid(code))) throw httpError(403, INVALID_SETUP_CODE);
      const owner = await users.createOwner(body.username, await hashPassword(body.password), code);
      if (!owner) throw (await users.ownerExists()) ? taken() : httpError(403, INVALID_SETUP_CODE);
      opts.onOwnerCreated?.();
      await limiter.remember(request, reply, owner.id, owner.username);
      await sessions.start(request, reply, owner);
      return reply.code(201).send({ user: userJson(owner) });
    });

    auth.post('/auth/login', { onRequest: preSessionCsrf }, async (request, reply) => {
      const body = loginBody.parse(request.body);
      // Counted before the password is checked: parallel attempts cannot pass the limit.
      const attempt = await limiter.attempt(request, body.username);
      if (attempt.retryAfter > 0) return reply.code(429).header('retry-after', String(attempt.retryAfter)).send({ error: 'Too many failed logins; try again later' });
      const user = await users.findByUsername(body.username);
      // An unknown username waits as long as a check, without taking a hashing slot from a real user.
      const ok = user ? await verifyPassword(body.password, user.passwordHash) : await decoyCheck();
      // A disabled account answers exactly like a wrong password.
      if (!user || !ok || user.disabled) throw httpError(401, 'Invalid username or password');
      await attempt.succeeded(reply, user.id);
      if (needsRehash(user.passwordHash)) await users.setPasswordHash(user.id, await hashPassword(body.password), false);
      await sessions.start(request, reply, user);
      return { user: userJson(user) };
    });

    auth.post('/auth/logout', { onRequest: signedIn() }, async (request, reply) => {
      await sessions.end(request, reply);
      return { ok: true };
    });

    auth.post('/auth/password', { onRequest: signedIn() }, async (request, reply) => {
      const body = passwordChangeBody.parse(request.body);
      const { user } = session(request);
      // The current password is guessed no faster than at the login form.
      const attempt = await limiter.attempt(request, user.username);
      if (attempt.retryAfter > 0) return reply.code(429).header('retry-after', String(attempt.retryAfter)).send({ error: 'Too many failed attempts; try again later' });
      const stored = await users.passwordHashOf(user.id);
      if (!stored || !(await verifyPassword(body.current_password, stored))) throw httpError(403, 'The current password is wrong');
      await attempt.succeeded(reply, user.id);
      // Every session of the user ends (other browsers included); this one gets a new session.
      await users.setPasswordHash(user.id, await hashPassword(body.new_password), true);
      await sessions.start(request, reply, user);
      return { user: userJson(user) };
    });

    registerUserRoutes(auth, users, guards);
    registerLoginLinkRoutes(auth, users, sessions.cookies, opts.operatorToken);
  });
}
