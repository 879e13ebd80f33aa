import { scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RUNNING, MAX_WAITING } from '../src/auth/hashing-gate.ts';
import { usersRepo } from '@devtrail/relational-store';
import { mostAttemptsWithin, PER_USER } from '../src/auth/login-limiter.ts';
import { issueSetupCode } from '../src/auth/setup-code.ts';
import { hashesBegun, hashPassword } from '../src/auth/password.ts';
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
    // Twenty wrong codes at once: no hash was computed for any of them.
    const started = hashesBegun();
    const many = await Promise.all(
      Array.from({ length: 20 }, () => mallory.call('POST', '/auth/setup', { username: 'mallory', password: 'mallory-password', setup_code: 'WRNG-CODE-0000-0000' })),
    );
    expect(statuses(many)).toEqual(Array(20).fill(403));
    expect(hashesBegun() - started).toBe(0);
    expect((await mallory.me()).setup_needed).toBe(true);

    const operator = new Browser(t.app);
    const claimed = await operator.setup('owner', 'owner-password', t.ui.setupCode!.code);
    expect(claimed.statusCode).toBe(201);
    // Once there is an owner, setup is refused before anything is hashed, even with valid credentials.
    const again = hashesBegun();
    const late = await Promise.all(
      Array.from({ length: 20 }, () => mallory.call('POST', '/auth/setup', { username: 'x', password: 'mallory-password', setup_code: OPERATOR })),
    );
    expect(statuses(late)).toEqual(Array(20).fill(409));
    expect(hashesBegun() - again).toBe(0);
  });

  it('a code of an earlier start is no longer valid, only the newest; setup sends each cookie once', async () => {
    const other = await authApp({}, t);
    try {
      const earlier = other.ui.setupCode!.code;
      const current = await issueSetupCode(usersRepo(other.adapters.relational), other.dataDir, () => {}); // as the next start does
      const b = new Browser(other.app);
      const stale = await b.setup('root', 'root-password-1', earlier);
      expect(stale.statusCode).toBe(403);
      expect(stale.json().error).toMatch(/^Invalid or expired setup code/);
      const claimed = await b.setup('root', 'root-password-1', current!.code);
      expect(claimed.statusCode).toBe(201);
      const names = claimed.cookies.map((c: { name: string }) => c.name).sort();
      expect(names).toEqual([...new Set(names)]);
      expect(names).toEqual(['__Host-dt_device', '__Host-dt_presession', '__Host-dt_session']);
      await b.call('POST', '/auth/logout');
      const login = await b.login('root', 'root-password-1');
      expect(login.statusCode).toBe(200);
      const loginNames = login.cookies.map((c: { name: string }) => c.name).sort();
      expect(loginNames).toEqual(['__Host-dt_device', '__Host-dt_presession', '__Host-dt_session']);
    } finally {
      await other.close();
    }
  }, 90_000);

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

  // Changed on purpose: unknown usernames no longer hash (they wait like a check, decoyCheck), so
  // a burst of them cannot fill the gate; the gate is held to its bounds with real hashes.
  it(`bounds password hashing: at most ${MAX_RUNNING} run and ${MAX_WAITING} wait; a burst past that gets 503`, async () => {
    const burst = await Promise.allSettled(Array.from({ length: 30 }, () => hashPassword('a burst of hashes')));
    const busy = burst.flatMap((r) => (r.status === 'rejected' ? [r.reason as { status: number; message: string; headers?: Record<string, string> }] : []));
    // At most MAX_RUNNING + MAX_WAITING are admitted (fewer when hashes of earlier work still hold slots).
    expect(busy.length).toBeGreaterThanOrEqual(30 - MAX_RUNNING - MAX_WAITING);
    // The HTTP answer the gate's error becomes (libs/http's HttpError): 503 with Retry-After.
    expect({ status: busy[0]?.status, message: busy[0]?.message, headers: busy[0]?.headers }).toEqual({
      status: 503,
      message: 'Too many logins at once; retry in a moment',
      headers: { 'retry-after': '1' },
    });
  }, 120_000);

  it("a burst of 60 logins with unknown usernames from distinct addresses gets 401s in a check's time, and a real user's login beside it gets in", async () => {
    const fresh = await authApp({}, t);
    try {
      const owner = new Browser(fresh.app, '10.7.7.7');
      expect((await owner.setup('owner', 'owner-password', OPERATOR)).statusCode).toBe(201);
      await owner.call('POST', '/auth/logout');
      const newBrowser = new Browser(fresh.app, '10.7.7.7');
      const strangers = Array.from({ length: 60 }, (_, i) => new Browser(fresh.app, `198.18.${Math.floor(i / 200)}.${i % 200}`));
      await Promise.all([newBrowser.me(), ...strangers.map((b) => b.me())]);
      const started = performance.now();
      const hashed = hashesBegun();
      const [burst, owners] = await Promise.all([
        Promise.all(strangers.map((b, i) => b.call('POST', '/auth/login', { username: `user${i}-${Math.random()}`, password: 'wrong-password' }))),
        newBrowser.call('POST', '/auth/login', { username: 'owner', password: 'owner-password' }),
      ]);
      const tookMs = performance.now() - started;
      const computed = hashesBegun() - hashed;
      console.log(`60 unknown usernames and the owner at once: ${tookMs.toFixed(0)} ms (one hash ${hashMs.toFixed(0)} ms), ${computed} hash computed`);
      expect(statuses(burst)).toEqual(Array(60).fill(401));
      expect(owners.statusCode).toBe(200);
      // The unknown ones waited a check's time without hashing (decoys): the owner's check was the one
      // hash, so no hashing queue formed. Counted, not timed: a busy machine lengthens every wait.
      expect(computed).toBe(1);
    } finally {
      await fresh.close();
    }
  }, 90_000);
});

describe('never a lockout (docs/security.md#logins)', () => {
  it('while a stranger sends one wrong login a second from rotating addresses, the owner gets in from a new browser; from a new place, with a login link', async () => {
    const fresh = await authApp({}, t);
    try {
      const home = '10.8.8.8';
      const setupBrowser = new Browser(fresh.app, home);
      expect((await setupBrowser.setup('owner', 'owner-password', OPERATOR)).statusCode).toBe(201);
      // The attack: first a parallel wave that spends the username's free attempts, then one a second,
      // every attempt from an address of its own.
      let n = 0;
      const attackOnce = async () => {
        const a = new Browser(fresh.app, `203.0.${113 + Math.floor(n / 250)}.${n++ % 250}`);
        await a.me();
        return a.call('POST', '/auth/login', { username: 'owner', password: `guess-${n}` });
      };
      const attackStarted = performance.now();
      const wave = await Promise.all(Array.from({ length: 20 }, attackOnce));
      expect(count(wave, 401)).toBe(10);
      let attacking = true;
      const attack = (async () => {
        const tries = wave; // every attempt, the waves included
        while (attacking) {
          tries.push(await attackOnce());
          await new Promise((r) => setTimeout(r, 1000));
        }
        return tries;
      })();
      await new Promise((r) => setTimeout(r, 1500));
      // The owner, right password, a new browser (no device cookie) at home: in, every time.
      for (let i = 0; i < 3; i++) {
        const newBrowser = new Browser(fresh.app, home);
        const r = await newBrowser.login('owner', 'owner-password');
        expect(r.statusCode, `try ${i + 1}`).toBe(200);
        expect(newBrowser.cookies.has('__Host-dt_device')).toBe(true);
        await new Promise((r) => setTimeout(r, 700));
      }
      // A new browser at a new place waits like the attackers, until the operator's login link makes
      // it trusted. (Three more attempts first: on a loaded machine the one-a-second loop is slower.)
      wave.push(...(await Promise.all(Array.from({ length: 3 }, attackOnce))));
      const travelling = new Browser(fresh.app, '192.0.2.77');
      expect((await travelling.login('owner', 'owner-password')).statusCode).toBe(429);
      const link = await fresh.app.inject({ method: 'POST', url: '/auth/login-links', headers: { authorization: `Bearer ${OPERATOR}` }, payload: { username: 'owner' } });
      expect(link.statusCode).toBe(201);
      const opened = await travelling.call('GET', link.json().path);
      expect(opened.statusCode).toBe(303);
      expect(opened.headers.location).toBe('/login');
      expect((await travelling.login('owner', 'owner-password')).statusCode).toBe(200);
      // The link worked once: the login replaced its token.
      expect((await new Browser(fresh.app, '192.0.2.78').call('GET', link.json().path)).statusCode).toBe(404);

      attacking = false;
      const tries = await attack;
      const evaluated = count(tries, 401);
      console.log(`attack: ${tries.length} wrong logins from ${n} addresses, ${evaluated} evaluated; the owner got in 4 of 4 times`);
      // The 10 free, then one when each wait ends: 5 s, 10 s, 20 s, … at most 60 s.
      expect(evaluated).toBeLessThanOrEqual(mostAttemptsWithin(PER_USER, performance.now() - attackStarted));
      expect(count(tries, 401) + count(tries, 429)).toBe(tries.length);
    } finally {
      await fresh.close();
    }
  }, 120_000);

  it('a login link needs the operator token and names a live user; a wrong or reused link is a 404', async () => {
    const noToken = await t.app.inject({ method: 'POST', url: '/auth/login-links', payload: { username: 'owner' } });
    expect(noToken.statusCode).toBe(401);
    const wrongToken = await t.app.inject({ method: 'POST', url: '/auth/login-links', headers: { authorization: 'Bearer dto_wrong' }, payload: { username: 'owner' } });
    expect(wrongToken.statusCode).toBe(401);
    const nobody = await t.app.inject({ method: 'POST', url: '/auth/login-links', headers: { authorization: `Bearer ${OPERATOR}` }, payload: { username: 'nobody' } });
    expect(nobody.statusCode).toBe(404);
    const forged = await new Browser(t.app).call('GET', '/auth/login-link?user=owner&token=not-a-token');
    expect(forged.statusCode).toBe(404);
    expect(forged.cookies).toEqual([]);
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
