import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hashingSlot } from './hashing-gate.ts';

// Password hashes: scrypt with a random 16-byte salt, stored as
// "scrypt$N$r$p$<salt b64>$<hash b64>", so the cost can rise without a migration: a hash made
// with other parameters still verifies, and is replaced at the next successful login
// (needsRehash). The cost is OWASP's (Password Storage Cheat Sheet): N=2^17, r=8, p=1, which
// takes 128 MiB and a few hundred milliseconds per hash; hashing-gate.ts bounds how many run.

export const PASSWORD_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
// What a stored hash may ask for: beyond it the hash is refused rather than computed.
const MAX_N = 2 ** 20;
const MAX_R = 16;
const MAX_P = 16;

// Hashes this process has begun: what the login defences' tests count, where a time would
// depend on how busy the machine is ("refused before any password is hashed").
let begun = 0;
export const hashesBegun = () => begun;

function derive(password: string, salt: Buffer, opts: ScryptOptions & { N: number; r: number; p: number }, timed?: (ms: number) => void): Promise<Buffer> {
  const maxmem = 128 * opts.N * opts.r * opts.p + 32 * 1024 * 1024;
  return hashingSlot(
    () =>
      new Promise((resolve, reject) => {
        begun++;
        const started = performance.now();
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...opts, maxmem }, (err, key) => {
          if (err) return reject(err);
          timed?.(performance.now() - started);
          resolve(key);
        });
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PASSWORD_COST, observeCheck);
  return ['scrypt', PASSWORD_COST.N, PASSWORD_COST.r, PASSWORD_COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

function parse(stored: string): { N: number; r: number; p: number; salt: Buffer; expected: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > MAX_N || r > MAX_R || p > MAX_P) return null;
  const expected = Buffer.from(parts[5], 'base64');
  if (expected.length !== KEY_LENGTH) return null;
  return { N, r, p, salt: Buffer.from(parts[4], 'base64'), expected };
}

// How long a hash of today's cost takes here, lately (a moving average of every hash and check):
// what an unknown username waits instead of hashing (decoyCheck).
let typicalCheckMs: number | undefined;
const FALLBACK_CHECK_MS = 300;
function observeCheck(ms: number): void {
  typicalCheckMs = typicalCheckMs === undefined ? ms : 0.8 * typicalCheckMs + 0.2 * ms;
}

/** Constant-time check; false for any malformed stored hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parse(stored);
  if (!h) return false;
  const todays = h.N === PASSWORD_COST.N && h.r === PASSWORD_COST.r && h.p === PASSWORD_COST.p;
  const key = await derive(password, h.salt, { N: h.N, r: h.r, p: h.p }, todays ? observeCheck : undefined);
  return timingSafeEqual(key, h.expected);
}

let calibration: Promise<void> | undefined;
/** Times one real check, once per process, when a decoy is needed before any hash was timed. */
const calibrateChecks = () =>
  (calibration ??= (async () => {
    try {
      await verifyPassword('calibration', await dummyPasswordHash());
    } catch {
      // the gate was full: decoys use FALLBACK_CHECK_MS until a real check is timed
    }
  })());

/**
 * What an unknown username gets instead of a password check: false, after about as long as a
 * real check takes (±10 %), without hashing. So a burst of made-up usernames takes no hashing
 * slot from a real user (hashing-gate.ts) and still cannot tell unknown users from wrong
 * passwords by time (docs/security.md#logins).
 */
export async function decoyCheck(): Promise<false> {
  if (typicalCheckMs === undefined) await calibrateChecks();
  const ms = (typicalCheckMs ?? FALLBACK_CHECK_MS) * (0.9 + Math.random() * 0.2);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return false;
}

/** True when a stored hash was made with other parameters than today's. */
export function needsRehash(stored: string): boolean {
  const h = parse(stored);
  return !h || h.N !== PASSWORD_COST.N || h.r !== PASSWORD_COST.r || h.p !== PASSWORD_COST.p;
}

let dummy: Promise<string> | undefined;
/** A valid hash of an unguessable password: checking an unknown user costs what a real check costs. */
export const dummyPasswordHash = () =>
  (dummy ??= hashPassword(randomBytes(16).toString('hex')).catch((err) => {
    dummy = undefined; // refused (the gate was full): made at the next call
    throw err;
  }));
