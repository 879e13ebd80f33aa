import { scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RUNNING, MAX_WAITING } from '../src/auth/hashing-gate.ts';
import { hashPassword } from '../src/auth/password.ts';
import { authApp, Browser, OPERATOR, type AuthApp } from './support/inject-browser.ts';

// Claiming a fresh install and logging in, tried as an attacker would, through the app's
// front door (inject, each "browser" at a client address of its choice).

let t: AuthApp;
let hashMs: number;
beforeAll(async () => {
  t = await authApp();
  const started = performance.now();
  await hashPassword('one hash, timed');
  hashMs = performance.now() - started;
});
afterAll(async () => t?.close());

const statuses = (rs: Array<{ statusCode: number }>) => rs.map((r) => r.statusCode).sort();
const count = (rs: Array<{ statusCode: number }>, status: number) => rs.filter((r) => r.statusCode === status).length;

describe('claiming a fresh install', () => {
  it('needs the setup code or the operator token: the two-call takeover is refused, before any password is hashed', async () => {
    const mallory = new Browser(t.app, '203.0.113.7');
    expect((await mallory.me()).setup_needed).toBe(true);
    // The two calls that used to create the owner.
    const twoCalls = await mallory.call('POST', '/auth/setup', { username: 'mallory', password: 'mallory-password' });
    expect(twoCalls.statusCode).toBe(400);
    const guessed = await mallory.call('POST', '/auth/setup', { username: 'mallory', password: 'mallory-password', setup_code: 'AAAA-BBBB-CCCC-DDDD' });
    expect(guessed.statusCode).toBe(403);
    expect(guessed.json().error).toMatch(/^Invalid or expired setup code/);
    // Twenty wrong codes at once cost less than a few hashes would: none was computed.
    const started = performance.now();
    const many = await Promise.all(
      Array.from({ length: 20 }, () => mallory.call('POST', '/auth/setup', { username: 'mallory', password: 'mallory-password', setup_code: 'WRNG-CODE-0000-0000' })),
    );
    expect(statuses(many)).toEqual(Array(20).fill(403));
    expect(performance.now() - started).toBeLessThan(3 * hashMs);
    expect((await mallory.me()).setup_needed).toBe(true);

    const operator = new Browser(t.app);
    const claimed = await operator.setup('owner', 'owner-password', t.ui.setupCode!.code);
    expect(claimed.statusCode).toBe(201);
    // Once there is an owner, setup is refused before anything is hashed, even with valid credentials.
    const again = performance.now();
    const late = await Promise.all(
      Array.from({ length: 20 }, () => mallory.call('POST', '/auth/setup', { username: 'x', password: 'mallory-password', setup_code: OPERATOR })),
    );
    expect(statuses(late)).toEqual(Array(20).fill(409));
    expect(performance.now() - again).toBeLessThan(3 * hashMs);
  });

  it('accepts the operator token in place of the code', async () => {
    const other = await authApp({}, t);
    try {
      const b = new Browser(other.app);
      expect((await b.setup('root', 'root-password-1', 'dto_not_the_operator_token_at_all')).statusCode).toBe(403);
      expect((await b.setup('root', 'root-password-1', OPERATOR)).statusCode).toBe(201);
    } finally {
      await other.close();
    }
  });
});

describe('the login throttle', () => {
  it('counts each attempt before evaluating it: 40 parallel wrong logins from one address get 5 evaluations', async () => {
    const attacker = new Browser(t.app, '198.51.100.1');
    await attacker.me();
    const tries = await Promise.all(Array.from({ length: 40 }, (_, i) => attacker.call('POST', '/auth/login', { username: 'nobody', password: `guess-${i}` })));
    expect(count(tries, 401)).toBe(5);
    expect(count(tries, 429)).toBe(35);
    const wait = tries.find((r) => r.statusCode === 429)!;
    expect(wait.json()).toEqual({ error: 'Too many failed logins; try again later' });
    expect(Number(wait.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('does not believe X-Forwarded-For unless the peer is a trusted proxy (TRUST_PROXY)', async () => {
    const attacker = new Browser(t.app, '198.51.100.2');
    await attacker.me();
    const rotating = [];
    for (let i = 0; i < 8; i++)
      rotating.push(await attacker.call('POST', '/auth/login', { username: 'someone', password: 'guess' }, { 'x-forwarded-for': `192.0.2.${i + 1}` }));
    expect(statuses(rotating.slice(0, 5))).toEqual(Array(5).fill(401));
    expect(rotating[5].statusCode).toBe(429);

    // Behind a proxy the operator trusts, its X-Forwarded-For is the client's address.
    const proxied = await authApp({ TRUST_PROXY: '10.0.0.2' }, t);
    try {
      const viaProxy = new Browser(proxied.app, '10.0.0.2');
      await viaProxy.me();
      const spread = [];
      for (let i = 0; i < 8; i++)
        spread.push(await viaProxy.call('POST', '/auth/login', { username: 'someone', password: 'guess' }, { 'x-forwarded-for': `192.0.2.${i + 1}` }));
      expect(statuses(spread)).toEqual(Array(8).fill(401));
    } finally {
      await proxied.close();
    }
  });

  it('slows a username attacked from many addresses down, without locking its owner out', async () => {
    // The owner logged in from this browser before: it holds a trusted-device cookie.
    const ownersBrowser = new Browser(t.app, '10.1.1.1');
    expect((await ownersBrowser.login('owner', 'owner-password')).statusCode).toBe(200);
    expect(ownersBrowser.cookies.has('__Host-dt_device')).toBe(true);
    await ownersBrowser.call('POST', '/auth/logout');

    const attackers = Array.from({ length: 30 }, (_, i) => new Browser(t.app, `203.0.113.${100 + i}`));
    await Promise.all(attackers.map((a) => a.me()));
    const tries = await Promise.all(attackers.map((a, i) => a.call('POST', '/auth/login', { username: 'owner', password: `guess-${i}` })));
    expect(count(tries, 401)).toBe(10);
    expect(count(tries, 429)).toBe(20);
    // A wait of seconds to a minute, not a 15-minute lockout.
    for (const r of tries.filter((x) => x.statusCode === 429)) expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);

    // While the attack goes on, a browser that never logged in waits like the attackers; the
    // owner's own browser gets in.
    const fresh = new Browser(t.app, '10.1.1.9');
    await fresh.me();
    await ownersBrowser.me();
    const [wave, newBrowser, owners] = await Promise.all([
      Promise.all(attackers.map((a, i) => a.call('POST', '/auth/login', { username: 'owner', password: `again-${i}` }))),
      fresh.call('POST', '/auth/login', { username: 'owner', password: 'owner-password' }),
      ownersBrowser.call('POST', '/auth/login', { username: 'owner', password: 'owner-password' }),
    ]);
    expect(count(wave, 401)).toBeLessThanOrEqual(1);
    expect(newBrowser.statusCode).toBe(429);
    expect(Number(newBrowser.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(owners.statusCode).toBe(200);
  });

  it(`bounds password hashing: at most ${MAX_RUNNING} run and ${MAX_WAITING} wait; a burst past that gets 503`, async () => {
    const burst = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const b = new Browser(t.app, `198.18.${Math.floor(i / 200)}.${i % 200}`);
        await b.me();
        return b.call('POST', '/auth/login', { username: `user${i}`, password: 'wrong-password' });
      }),
    );
    const busy = burst.filter((r) => r.statusCode === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0].json()).toEqual({ error: 'Too many logins at once; retry in a moment' });
    expect(busy[0].headers['retry-after']).toBe('1');
    expect(count(burst, 401) + busy.length).toBe(60);
  });
});

describe('password hashes', () => {
  it("use OWASP's scrypt parameters, and an older hash is replaced at the next login", async () => {
    // A fresh install of its own: the attacks above left the first one's owner throttled.
    const fresh = await authApp({}, t);
    try {
      const owner = new Browser(fresh.app, '10.1.1.1');
      expect((await owner.setup('owner', 'owner-password', OPERATOR)).statusCode).toBe(201);
      expect((await owner.call('POST', '/auth/users', { username: 'olga', password: 'olga-password' })).statusCode).toBe(201);
      const stored = async () =>
        (await fresh.adapters.relational.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'olga'"))[0].password_hash;
      expect(await stored()).toMatch(/^scrypt\$131072\$8\$1\$/);

      // As an older devtrail stored it: N=16384.
      const salt = Buffer.from('0123456789abcdef');
      const old = ['scrypt', 16384, 8, 1, salt.toString('base64'), scryptSync('olga-password', salt, 64, { N: 16384, r: 8, p: 1 }).toString('base64')].join('$');
      await fresh.adapters.relational.query("UPDATE users SET password_hash = $1 WHERE username = 'olga'", [old]);
      expect((await new Browser(fresh.app, '10.3.3.3').login('olga', 'olga-password')).statusCode).toBe(200);
      expect(await stored()).toMatch(/^scrypt\$131072\$8\$1\$/);
      expect((await new Browser(fresh.app, '10.3.3.4').login('olga', 'olga-password')).statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
