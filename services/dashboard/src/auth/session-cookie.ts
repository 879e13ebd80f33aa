import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';

// The dashboard's cookies: the session token, and before login a random value for the
// double-submit CSRF check of the login and setup forms. HttpOnly, SameSite=Lax, and
// Secure whenever the request came over https (directly or through a trusted proxy).

export const SESSION_COOKIE = 'dt_session';
export const PRE_SESSION_COOKIE = 'dt_presession';
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const value = parseCookie(header)[name];
  return value && value.length <= 200 ? value : undefined;
}

function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  const cookie = stringifySetCookie({
    name,
    value,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: maxAgeSeconds,
  });
  const prev = reply.getHeader('set-cookie');
  const list = prev === undefined ? [] : Array.isArray(prev) ? prev.map(String) : [String(prev)];
  reply.header('set-cookie', [...list, cookie]);
}

export const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, token: string) =>
  setCookie(request, reply, SESSION_COOKIE, token, Math.floor(SESSION_TTL_MS / 1000));
export const clearSessionCookie = (request: FastifyRequest, reply: FastifyReply) => setCookie(request, reply, SESSION_COOKIE, '', 0);
export const setPreSessionCookie = (request: FastifyRequest, reply: FastifyReply, value: string) => setCookie(request, reply, PRE_SESSION_COOKIE, value, 3600);
export const clearPreSessionCookie = (request: FastifyRequest, reply: FastifyReply) => setCookie(request, reply, PRE_SESSION_COOKIE, '', 0);
