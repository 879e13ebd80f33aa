import { describe, expect, it } from 'vitest';
import { mostAttemptsWithin, PER_ADDRESS, PER_DEVICE, PER_USER, PER_USER_ADDRESS } from '../src/auth/login-limiter.ts';

// The figures docs/security.md#logins gives: password evaluations an attacker gets per hour,
// trying the moment each wait ends.
describe('login throttle figures', () => {
  it('a username from anywhere: 72 an hour; from one address or one trusted device: 12; one address, any usernames: 27', () => {
    const hour = 3600_000;
    expect(mostAttemptsWithin(PER_USER, hour - 1)).toBe(72);
    expect(mostAttemptsWithin(PER_USER_ADDRESS, hour - 1)).toBe(12);
    expect(mostAttemptsWithin(PER_DEVICE, hour - 1)).toBe(12);
    expect(mostAttemptsWithin(PER_ADDRESS, hour - 1)).toBe(27);
    // The free attempts come at once.
    expect(mostAttemptsWithin(PER_USER, 0)).toBe(PER_USER.free);
  });
});
