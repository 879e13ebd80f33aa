import type { UsersRepo } from '@devtrail/relational-store';

// Failed logins are counted in the relational store (so the limit holds across
// dashboard replicas): at most 5 failures per username and client address in 15
// minutes, and 50 per username from all addresses together (client addresses can be
// spoofed through X-Forwarded-For when no proxy strips it).

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ADDRESS = 5;
export const MAX_FAILURES_PER_USERNAME = 50;

export function loginLimiter(users: UsersRepo, now = () => Date.now()) {
  return {
    /** Seconds to wait before trying again, or 0 when an attempt is allowed now. */
    async retryAfter(username: string, ip: string): Promise<number> {
      const since = new Date(now() - LOGIN_WINDOW_MS);
      const { fromIp, total } = await users.failedLogins(username, ip, since);
      if (fromIp < MAX_FAILURES_PER_ADDRESS && total < MAX_FAILURES_PER_USERNAME) return 0;
      const oldest = fromIp >= MAX_FAILURES_PER_ADDRESS ? await users.oldestFailedLogin(username, ip, since) : null;
      const freeAt = (oldest?.getTime() ?? now()) + LOGIN_WINDOW_MS;
      return Math.max(1, Math.ceil((freeAt - now()) / 1000));
    },
    async failed(username: string, ip: string): Promise<void> {
      await users.recordFailedLogin(username, ip);
    },
    async succeeded(username: string, ip: string): Promise<void> {
      await users.clearFailedLogins(username, ip);
      await users.pruneLoginAttempts(new Date(now() - 24 * 3600 * 1000));
    },
  };
}
