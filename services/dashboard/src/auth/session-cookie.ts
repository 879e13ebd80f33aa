import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';

// The dashboard's cookies: the session token; before login, a random value for the
// double-submit CSRF check of the login and setup forms; and the trusted-device token that
// lets a browser which logged in before skip the username's shared login throttle. All
// HttpOnly, SameSite=Lax, Path=/. With DASHBOARD_SECURE_COOKIES (the default) they are also
// Secure and named with the `__Host-` prefix, which browsers accept only from a secure
// origin, without Domain, for Path=/: no other host (a sibling subdomain) can set or shadow
// them. The setting, never a request header, decides (docs/security.md).

export type CookieKind = 'session' | 'preSession' | 'device';

const BASE_NAMES: Record<CookieKind, string> = { session: 'dt_session', preSession: 'dt_presession', device: 'dt_device' };
const MAX_VALUE_LENGTH = 200;

export interface DashboardCookies {
  readonly secure: boolean;
  name(kind: CookieKind): string;
  read(request: FastifyRequest, kind: CookieKind): string | undefined;
  set(reply: FastifyReply, kind: CookieKind, value: string, maxAgeMs: number): void;
  clear(reply: FastifyReply, kind: CookieKind): void;
}

export function dashboardCookies(secure: boolean): DashboardCookies {
  const name = (kind: CookieKind) => (secure ? `__Host-${BASE_NAMES[kind]}` : BASE_NAMES[kind]);
  const set = (reply: FastifyReply, kind: CookieKind, value: string, maxAgeMs: number) => {
    const cookie = stringifySetCookie({ name: name(kind), value, httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: Math.floor(maxAgeMs / 1000) });
    // One Set-Cookie per cookie: a later value of the same cookie replaces the earlier one.
    // (Fastify's reply.header appends to set-cookie, so the list is rebuilt, not re-added.)
    const prev = reply.getHeader('set-cookie');
    const list = prev === undefined ? [] : Array.isArray(prev) ? prev.map(String) : [String(prev)];
    reply.removeHeader('set-cookie');
    reply.header('set-cookie', [...list.filter((c) => !c.startsWith(`${name(kind)}=`)), cookie]);
  };
  return {
    secure,
    name,
    read(request, kind) {
      const header = request.headers.cookie;
      if (!header) return undefined;
      const value = parseCookie(header)[name(kind)];
      return value && value.length <= MAX_VALUE_LENGTH ? value : undefined;
    },
    set,
    clear: (reply, kind) => set(reply, kind, '', 0),
  };
}
