import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { safeEqual } from '@devtrail/access';
import { httpError } from '@devtrail/http';
import type { UsersRepo } from '@devtrail/relational-store';
import { username } from './auth-schemas.ts';
import { newToken } from './csrf.ts';
import type { DashboardCookies } from './session-cookie.ts';

// A one-time login link, minted with the operator token (`devtrail login-link <username>`):
// opening it makes the browser a trusted device of that user, so its logins count in the
// device's own bucket and no attack on the username from elsewhere can hold them up. It does
// not log anyone in: the password is still needed. Valid 15 minutes; the login it enables
// replaces it with a device token of its own, so it works once (docs/security.md#logins).

export const LOGIN_LINK_TTL_MS = 15 * 60_000;
export const INVALID_LOGIN_LINK = 'This login link is invalid, used or expired; ask the operator for a new one (devtrail login-link <username>)';

const linkBody = z.object({ username });
const linkQuery = z.object({ user: z.string().max(100), token: z.string().min(1).max(200) });

export function registerLoginLinkRoutes(auth: FastifyInstance, users: UsersRepo, cookies: DashboardCookies, operatorToken: string | undefined): void {
  auth.post('/auth/login-links', async (request, reply) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!operatorToken || !m || !safeEqual(m[1], operatorToken)) throw httpError(401, 'The operator token is required (Authorization: Bearer)');
    const body = linkBody.parse(request.body);
    const user = await users.findByUsername(body.username);
    if (!user || user.disabled) throw httpError(404, 'No such user');
    const token = newToken();
    const expiresAt = new Date(Date.now() + LOGIN_LINK_TTL_MS);
    await users.addDevice(user.id, token, expiresAt);
    const query = new URLSearchParams({ user: user.username, token });
    return reply.code(201).send({ path: `/auth/login-link?${query}`, username: user.username, expires_at: expiresAt.toISOString() });
  });

  auth.get('/auth/login-link', async (request, reply) => {
    const q = linkQuery.safeParse(request.query);
    if (!q.success || !(await users.isDeviceOf(q.data.token, q.data.user.toLowerCase()))) throw httpError(404, INVALID_LOGIN_LINK);
    cookies.set(reply, 'device', q.data.token, LOGIN_LINK_TTL_MS);
    return reply.redirect('/login', 303);
  });
}
