import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loginThrottleRepo, type RelationalStore, type ThrottleBucket, type ThrottleRule, type UsersRepo } from '@devtrail/relational-store';
import { newToken } from './csrf.ts';
import type { DashboardCookies } from './session-cookie.ts';

// Which buckets a login attempt counts in (libs/relational-store login-throttle-repo.ts):
//
//   username from this address   5 free, then 30 s, 1 min, 2 min, … up to 15 min
//   this address, any username   20 free, then the same
//   username, from anywhere      10 free, then 5 s, 10 s, … at most 60 s: under 100 guesses
//                                an hour (OWASP ASVS 2.2.1), and never a lockout
//   a trusted device instead     5 free, then 30 s … up to 15 min
//
// A browser that logged in as a user before holds a trusted-device cookie for that user
// (OWASP's "device cookies"); its attempts count only in the device's own bucket, so
// attackers hammering the username from other addresses cannot lock its owner out.

const PER_USER_ADDRESS: ThrottleRule = { free: 5, baseMs: 30_000, maxMs: 15 * 60_000 };
const PER_ADDRESS: ThrottleRule = { free: 20, baseMs: 30_000, maxMs: 15 * 60_000 };
const PER_USER: ThrottleRule = { free: 10, baseMs: 5000, maxMs: 60_000 };
const PER_DEVICE: ThrottleRule = { free: 5, baseMs: 30_000, maxMs: 15 * 60_000 };
export const DEVICE_TTL_MS = 30 * 24 * 3600 * 1000;

export interface Attempt {
  /** Seconds to wait before trying again; 0 when this attempt was counted and may be evaluated. */
  retryAfter: number;
  /** Call after a successful login. */
  succeeded(reply: FastifyReply, userId: string): Promise<void>;
}

export function loginLimiter(store: RelationalStore, users: UsersRepo, cookies: DashboardCookies) {
  const throttle = loginThrottleRepo(store);
  return {
    /** Counts the attempt before anything is evaluated. */
    async attempt(request: FastifyRequest, username: string): Promise<Attempt> {
      const device = cookies.read(request, 'device');
      const trusted = device !== undefined && (await users.isDeviceOf(device, username));
      const ip = request.ip;
      const buckets: ThrottleBucket[] = trusted
        ? [{ key: `device:${createHash('sha256').update(device).digest('hex')}`, rule: PER_DEVICE }]
        : [
            { key: `user-ip:${username}|${ip}`, rule: PER_USER_ADDRESS },
            { key: `ip:${ip}`, rule: PER_ADDRESS },
            { key: `user:${username}`, rule: PER_USER },
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
          if (device) await users.deleteDevice(device);
          const token = newToken();
          await users.addDevice(userId, token, new Date(Date.now() + DEVICE_TTL_MS));
          cookies.set(reply, 'device', token, DEVICE_TTL_MS);
        },
      };
    },
    prune: () => throttle.prune(),
  };
}

export type LoginLimiter = ReturnType<typeof loginLimiter>;
