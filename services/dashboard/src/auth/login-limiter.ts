import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loginThrottleRepo, throttleDelayMs, type RelationalStore, type ThrottleBucket, type ThrottleRule, type UsersRepo } from '@devtrail/relational-store';
import { newToken } from './csrf.ts';
import { placeToken } from './login-place.ts';
import type { DashboardCookies } from './session-cookie.ts';

// Which buckets a login attempt counts in (libs/relational-store login-throttle-repo.ts):
//
//   username from this address   5 free, then 30 s, 1 min, 2 min, … up to 15 min
//   this address, any username   20 free, then the same
//   username, from anywhere      10 free, then 5 s, 10 s, … at most 60 s: at most 72
//                                evaluations an hour (OWASP ASVS 2.2.1)
//   a trusted device instead     5 free, then 30 s … up to 15 min
//
// The username's shared bucket is what an attacker with endless addresses runs into, so the
// user must not depend on it: a browser that logged in as the user before holds a
// trusted-device cookie (OWASP's "device cookies") and counts only in its own bucket, and an
// attempt from a place (address, IPv6 /64) the user logged in from in the last 30 days skips
// the shared bucket (its address buckets still count). From anywhere else, the operator's
// one-time login link (login-link.ts) makes the browser a trusted device. So no attack from
// other addresses locks a user out, and the attacker gets at most the shared bucket's
// evaluations (docs/security.md#logins).

export const PER_USER_ADDRESS: ThrottleRule = { free: 5, baseMs: 30_000, maxMs: 15 * 60_000 };
export const PER_ADDRESS: ThrottleRule = { free: 20, baseMs: 30_000, maxMs: 15 * 60_000 };
export const PER_USER: ThrottleRule = { free: 10, baseMs: 5000, maxMs: 60_000 };
export const PER_DEVICE: ThrottleRule = { free: 5, baseMs: 30_000, maxMs: 15 * 60_000 };

/** The most attempts a bucket lets through within `ms`, to one who tries the moment each wait ends. */
export function mostAttemptsWithin(rule: ThrottleRule, ms: number): number {
  let n = 0;
  for (let t = 0; t <= ms; t += throttleDelayMs(n, rule)) n++;
  return n;
}
export const DEVICE_TTL_MS = 30 * 24 * 3600 * 1000;
/** How long a place a user logged in from skips the username's shared bucket. */
export const PLACE_TTL_MS = DEVICE_TTL_MS;

export interface Attempt {
  /** Seconds to wait before trying again; 0 when this attempt was counted and may be evaluated. */
  retryAfter: number;
  /** Call after a successful login. */
  succeeded(reply: FastifyReply, userId: string): Promise<void>;
}

export function loginLimiter(store: RelationalStore, users: UsersRepo, cookies: DashboardCookies) {
  const throttle = loginThrottleRepo(store);
  /** The browser becomes a trusted device of the user (a new token), and its place a known one. */
  async function remember(request: FastifyRequest, reply: FastifyReply, userId: string, username: string): Promise<void> {
    const device = cookies.read(request, 'device');
    if (device) await users.deleteDevice(device);
    const token = newToken();
    await users.addDevice(userId, token, new Date(Date.now() + DEVICE_TTL_MS));
    cookies.set(reply, 'device', token, DEVICE_TTL_MS);
    await users.rememberDevice(userId, placeToken(username, request.ip), new Date(Date.now() + PLACE_TTL_MS));
  }
  return {
    /** Counts the attempt before anything is evaluated. */
    async attempt(request: FastifyRequest, username: string): Promise<Attempt> {
      const device = cookies.read(request, 'device');
      const trusted = device !== undefined && (await users.isDeviceOf(device, username));
      const ip = request.ip;
      const knownPlace = !trusted && (await users.isDeviceOf(placeToken(username, ip), username));
      const buckets: ThrottleBucket[] = trusted
        ? [{ key: `device:${createHash('sha256').update(device).digest('hex')}`, rule: PER_DEVICE }]
        : [
            { key: `user-ip:${username}|${ip}`, rule: PER_USER_ADDRESS },
            { key: `ip:${ip}`, rule: PER_ADDRESS },
            ...(knownPlace ? [] : [{ key: `user:${username}`, rule: PER_USER }]),
          ];
      const waitMs = await throttle.take(buckets);
      return {
        retryAfter: Math.ceil(waitMs / 1000),
        async succeeded(reply, userId) {
          // The address's and device's own counts start over; the shared ones only forget this attempt.
          await throttle.succeeded(
            [buckets[0].key],
            buckets.slice(1).map((b) => b.key),
          );
          await remember(request, reply, userId, username);
        },
      };
    },
    /** After setup: the owner's browser and place are known from the start. */
    remember,
    prune: () => throttle.prune(),
  };
}

export type LoginLimiter = ReturnType<typeof loginLimiter>;
