import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  compileScrubber,
  FILTERED,
  isSecretKey,
  luhn,
  MAX_PROGRAM_SIZE,
  SCRUB_BUDGET_MS,
  scrubBudget,
  scrubbingSchema,
  scrubEvents,
  worstNs,
  type Scrubber,
} from '../src/index.ts';
import { RE2JS } from 're2js';
import { runs } from '../../../test/support/property.ts';

// The scrubber with the default rules (docs/data.md#default-rules), by example and over
// generated nested documents: nothing a default rule matches survives, nothing else changes.

const defaults = compileScrubber(scrubbingSchema.parse({}), 'salt')!;

/** A Luhn-valid card number of `length` digits from `body` digits, written in groups of four with `sep`. */
function card(body: number[], sep: '' | ' ' | '-'): string {
  for (let check = 0; check <= 9; check++) {
    const digits = [...body, check].join('');
    if (luhn(digits)) return digits.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
  }
  throw new Error('unreachable');
}
const cardArb = fc
  .tuple(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 18 }), fc.constantFrom('' as const, ' ' as const, '-' as const))
  .map(([b, s]) => card(b, s));

describe('default key rule', () => {
  it.each([
    'password',
    'Password',
    'PASSWD',
    'user_password',
    'passwordHash',
    'secret',
    'client_secret',
    'token',
    'accessToken',
    'refresh_token',
    'csrf_token',
    'api_key',
    'apiKey',
    'API-KEY',
    'x-api-key',
    'apikey',
    'Authorization',
    'http.request.header.authorization',
    'cookie',
    'Set-Cookie',
    'set-cookie',
    'session',
    'sessionId',
    'session_id',
    'private_key',
    'credentials',
    'credit_card',
    'auth',
  ])('%s looks secret', (key) => expect(isSecretKey(key)).toBe(true));

  it.each(['PASSWORDHASH', 'accesstoken', 'sessionid', 'USERPASSWORD'])('%s, written as one word, looks secret', (key) => expect(isSecretKey(key)).toBe(true));

  it.each([
    'author',
    'input_tokens',
    'max_tokens',
    'gen_ai.usage.output_tokens',
    'keyboard',
    'monkey',
    'user_id',
    'email',
    'message',
    'tokenizer',
    'oauth_provider',
    'cache_key',
  ])('%s does not', (key) => expect(isSecretKey(key)).toBe(false));
});

describe('default value rule: card numbers by Luhn', () => {
  it.each([
    ['pay 4111 1111 1111 1111 now', `pay ${FILTERED} now`],
    ['4111-1111-1111-1111', FILTERED],
    ['4111111111111111', FILTERED],
    ['card 4111 1111 1111 1111 2024', `card ${FILTERED} 2024`],
    ['call 555 0100 4111111111111111', `call 555 0100 ${FILTERED}`],
    ['amex 378282246310005.', `amex ${FILTERED}.`],
    // Beside a UUID written in digits only, which is kept.
    ['4111 1111 1111 1111 00000000-0000-1000-8000-000400000009', `${FILTERED} 00000000-0000-1000-8000-000400000009`],
    ['00000000-0000-1000-8000-000400000009 4111-1111-1111-1111', `00000000-0000-1000-8000-000400000009 ${FILTERED}`],
  ])('%s', (input, out) => expect(defaults.text(input)).toBe(out));

  it.each([
    'order 4111 1111 1111 1112',
    'id 12345678901234567890123',
    'at 2026-11-21 10:00:00',
    'took 35 ms',
    '',
    // Part of an identifier: glued to a word, directly or through a dash.
    'request 41111111-1111-4111-b111-111111111111 done',
    'trace a4111111111111111',
    'order-4111111111111111',
    '4111-1111-1111-1111-x',
    'request 00000000-0000-1000-8000-000400000009 done',
    '4111-00000000-0000-1000-8000-000247074175',
  ])('%s stays', (s) => expect(defaults.text(s)).toBe(s));

  it('leaves every UUID as it is', () => {
    fc.assert(
      fc.property(fc.uuid(), (u) => defaults.text(`request ${u} failed`) === `request ${u} failed`),
      { numRuns: runs(20_000) },
    );
  });
});

describe('rules and actions', () => {
  const with_ = (rules: unknown[], defaultsOn = false): Scrubber => compileScrubber(scrubbingSchema.parse({ defaults: defaultsOn, rules }), 'salt')!;

  it('nothing to do without defaults and rules', () => {
    expect(compileScrubber(scrubbingSchema.parse({ defaults: false }), null)).toBeNull();
  });

  it('key pattern: remove, mask, hash (stable per project salt)', () => {
    const doc = { ssn: '123-45-6789', pin: 1234, tag: 'x', nested: { ssn_old: 'y' } };
    expect(with_([{ match: 'key', pattern: '^ssn', action: 'remove' }]).tree(structuredClone(doc))).toEqual({ pin: 1234, tag: 'x', nested: {} });
    expect(with_([{ match: 'key', pattern: '^pin$', action: 'mask' }]).tree(structuredClone(doc))).toMatchObject({ pin: '****' });
    const hashed = with_([{ match: 'key', pattern: '^tag$', action: 'hash' }]).tree(structuredClone(doc)) as { tag: string };
    expect(hashed.tag).toMatch(/^[0-9a-f]{32}$/);
    expect((with_([{ match: 'key', pattern: '^tag$', action: 'hash' }]).tree({ tag: 'x' }) as { tag: string }).tag).toBe(hashed.tag);
    expect(
      (
        compileScrubber(scrubbingSchema.parse({ defaults: false, rules: [{ match: 'key', pattern: '^tag$', action: 'hash' }] }), 'other')!.tree({ tag: 'x' }) as {
          tag: string;
        }
      ).tag,
    ).not.toBe(hashed.tag);
  });

  it('value patterns: email, IPv4, IPv6, regex', () => {
    const s = with_([
      { match: 'email', action: 'mask' },
      { match: 'ip', action: 'filter' },
      { match: 'regex', pattern: 'order-[0-9]+', action: 'hash' },
    ]);
    expect(s.text('mail alice@example.com from 10.0.0.12 and 2001:db8::1, v1.2.3 at 10:00:00')).toBe(
      `mail ***************** from ${FILTERED} and ${FILTERED}, v1.2.3 at 10:00:00`,
    );
    expect(s.text('see ORDER-42')).toMatch(/^see [0-9a-f]{32}$/);
  });

  it("the project's rules come before the defaults: a secret key can be hashed instead of filtered", () => {
    const s = with_([{ match: 'key', pattern: '^token$', action: 'hash' }], true);
    expect((s.tree({ token: 'abc', password: 'p' }) as Record<string, string>).token).toMatch(/^[0-9a-f]{32}$/);
    expect((s.tree({ token: 'abc', password: 'p' }) as Record<string, string>).password).toBe(FILTERED);
  });

  it('refuses patterns RE2 cannot run (no backreferences) and bounds their length', () => {
    expect(scrubbingSchema.safeParse({ rules: [{ match: 'regex', pattern: '(a)\\1' }] }).success).toBe(false);
    expect(scrubbingSchema.safeParse({ rules: [{ match: 'regex', pattern: 'a'.repeat(201) }] }).success).toBe(false);
    expect(scrubbingSchema.safeParse({ rules: [{ match: 'regex', pattern: '(a+)+$' }] }).success).toBe(true);
  });

  it('refuses, when saved, a pattern whose RE2 program is too large, and says why', () => {
    // 12 alternatives of [a-z]{1,999}: ~24,000 instructions, ~0.4 ms of CPU per character of text.
    const hostile = Array.from({ length: 12 }, (_, i) => `[a-z]{1,999}${i}`).join('|');
    const r = scrubbingSchema.safeParse({ rules: [{ match: 'regex', pattern: hostile }] });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toMatch(/^Too expensive: its repetition counts add up to 11988 \(at most 400\)/);
    const big = scrubbingSchema.safeParse({ rules: [{ match: 'key', pattern: '[a-z]{1,300}x' }] });
    expect(big.error!.issues[0].message).toMatch(/^Too expensive: compiles to \d+ RE2 instructions \(at most 400\)/);
    const many = scrubbingSchema.safeParse({ rules: Array.from({ length: 5 }, (_, i) => ({ match: 'regex', pattern: `[a-z]{1,190}${i}` })) });
    expect(many.error!.issues[0].message).toMatch(/^Too expensive: the patterns compile to \d+ RE2 instructions together \(at most 1600\)/);
    // The largest allowed: a repetition of ~190.
    const largest = '[a-z]{1,190}0';
    expect(RE2JS.compile(largest, RE2JS.CASE_INSENSITIVE).programSize()).toBeLessThanOrEqual(MAX_PROGRAM_SIZE);
    expect(scrubbingSchema.safeParse({ rules: [{ match: 'regex', pattern: largest }] }).success).toBe(true);
  });

  it('a request spends at most its budget on patterns: past it, a value is filtered whole, never kept as it was', () => {
    const pattern = '[a-z]{1,190}0';
    const s = with_([{ match: 'regex', pattern, action: 'mask' }]);
    const size = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).programSize();
    const fits = Math.floor((SCRUB_BUDGET_MS * 1e6) / worstNs(size, 1));
    expect(s.text(`id abc0 ${'x'.repeat(100)}`)).toBe(`id **** ${'x'.repeat(100)}`);
    expect(s.text(`abc0 ${'y'.repeat(fits + 1)}`)).toBe(FILTERED); // its worst case is past the budget: not run
    // One budget (a deadline) for all a request's events: once it is spent, every value is filtered.
    const spent = scrubBudget(0);
    const events = [{ message: 'k abc0', metadata: { note: 'abc0', n: 1 } }];
    scrubEvents('log', events, s, spent);
    expect(events[0]).toEqual({ message: FILTERED, metadata: { note: FILTERED, n: 1 } });
    // The budget bounds the time: values of the worst text for this pattern, 4x the budget's worth.
    const many = Array.from({ length: 16 }, () => ({ message: `k abc0 ${'a'.repeat(Math.floor(fits / 4))}`, metadata: {} }));
    // CPU time, not wall time: a loaded machine may pause the process, which no budget can bound.
    const cpu0 = process.cpuUsage();
    scrubEvents('log', many, s, scrubBudget());
    const cpu = process.cpuUsage(cpu0);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(SCRUB_BUDGET_MS * 2);
    expect(many.every((e) => e.message === FILTERED || e.message.startsWith('k **** '))).toBe(true);
  });

  it('a pattern that backtracks exponentially elsewhere runs in linear time on RE2', () => {
    const s = with_([{ match: 'regex', pattern: '(a+)+$', action: 'filter' }]);
    const input = `${'a'.repeat(50_000)}!`;
    expect(s.text(input)).toBe(input); // a backtracking engine would not return for the age of the universe
  });
});

// ---- property: generated nested documents ------------------------------------------------

type Leaf = { t: 'str'; tokens: Array<{ card: boolean; s: string }> } | { t: 'num'; v: number } | { t: 'bool'; v: boolean } | { t: 'null' };
type Node = Leaf | { t: 'arr'; items: Node[] } | { t: 'obj'; entries: Array<[string, Node]> };

const SECRET_BASES = [
  'password',
  'passwd',
  'secret',
  'token',
  'api_key',
  'apikey',
  'Authorization',
  'cookie',
  'set-cookie',
  'session',
  'apiKey',
  'ACCESS_TOKEN',
  'private-key',
];
const secretKey = fc
  .tuple(fc.constantFrom('', 'user_', 'x-', 'http.header.', 'old '), fc.constantFrom(...SECRET_BASES), fc.constantFrom('', '_hash', '-value', '_id', '.v2'))
  .map(([a, b, c]) => `${a}${b}${c}`);
const neutralKey = fc.oneof(fc.constantFrom('user', 'input_tokens', 'author', 'url', 'order', 'keyboard', 'status', 'count'), fc.string({ maxLength: 12 }));
const word = fc.stringMatching(/^[a-zA-Z ,:]{0,10}$/);
const shortNumber = fc.integer({ min: 0, max: 999_999 }).map(String);
const stringLeaf = fc
  .array(
    fc.oneof(
      { arbitrary: word.map((s) => ({ card: false, s })), weight: 3 },
      shortNumber.map((s) => ({ card: false, s })),
      cardArb.map((s) => ({ card: true, s })),
    ),
    { maxLength: 5 },
  )
  .map((tokens): Leaf => ({ t: 'str', tokens }));
const leaf: fc.Arbitrary<Leaf> = fc.oneof(
  { arbitrary: stringLeaf, weight: 4 },
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((v): Leaf => ({ t: 'num', v })),
  fc.boolean().map((v): Leaf => ({ t: 'bool', v })),
  fc.constant<Leaf>({ t: 'null' }),
);
const { node } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }).map((items): Node => ({ t: 'arr', items })),
    fc.array(fc.tuple(fc.oneof(secretKey, neutralKey), tie('node')), { maxLength: 5 }).map((entries): Node => ({ t: 'obj', entries })),
  ),
}));
const doc = fc.array(fc.tuple(fc.oneof(secretKey, neutralKey), node), { maxLength: 6 }).map((entries): Node => ({ t: 'obj', entries }));

const SEP = '. ';
/** An own property, as JSON.parse makes it: a key "__proto__" included, which `o[k] =` would turn into the prototype. */
const own = (o: Record<string, unknown>, k: string, v: unknown) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
function input(n: Node): unknown {
  switch (n.t) {
    case 'str':
      return n.tokens.map((x) => x.s).join(SEP);
    case 'num':
    case 'bool':
      return n.v;
    case 'null':
      return null;
    case 'arr':
      return n.items.map(input);
    case 'obj': {
      const o: Record<string, unknown> = {};
      for (const [k, v] of n.entries) own(o, k, input(v));
      return o;
    }
  }
}
/** What the default rules must make of the input: an independent statement of them. */
function expected(n: Node): unknown {
  switch (n.t) {
    case 'str':
      return n.tokens.map((x) => (x.card ? FILTERED : x.s)).join(SEP);
    case 'arr': {
      const pairKey = n.items.length === 2 && n.items[0].t === 'str' ? (input(n.items[0]) as string) : null;
      if (pairKey !== null && isSecretKey(pairKey)) return [expected(n.items[0]), n.items[1].t === 'null' ? null : FILTERED];
      return n.items.map(expected);
    }
    case 'obj': {
      // Later duplicates of a key win, as in the input object.
      const o: Record<string, unknown> = {};
      for (const [k, v] of n.entries) own(o, k, isSecretKey(k) && v.t !== 'null' ? FILTERED : expected(v));
      return o;
    }
    default:
      return input(n);
  }
}

/** Every string in a value: none may hold a card number, group-aligned, by brute force. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) strings(x, out.concat(k) && out);
  return out;
}
/** A card number the default rule must find: group-aligned in a run of digit groups that no word is glued to (directly or by a dash). */
function holdsCard(s: string): boolean {
  s = s.replace(/[0-9-]*(?<![0-9])[0-9]{8}-[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{12}(?![0-9])[0-9-]*/g, 'uuid');
  for (const m of s.matchAll(/[0-9]+(?:[ -][0-9]+)*/g)) {
    const run = m[0];
    const before = s.slice(0, m.index);
    const after = s.slice(m.index + run.length);
    if (/(?:[A-Za-z_]|[A-Za-z0-9_]-)$/.test(before) || /^(?:[A-Za-z_]|-[A-Za-z0-9_])/.test(after)) continue;
    const groups = run.split(/[ -]/);
    for (let i = 0; i < groups.length; i++)
      for (let j = i; j < groups.length; j++) {
        const d = groups.slice(i, j + 1).join('');
        if (d.length >= 13 && d.length <= 19 && luhn(d)) return true;
      }
  }
  return false;
}
function secretsLeft(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(secretsLeft);
  if (!v || typeof v !== 'object') return false;
  return Object.entries(v).some(([k, x]) => (isSecretKey(k) && x !== null && x !== FILTERED) || secretsLeft(x));
}

describe('property: the default rules over generated nested documents', () => {
  it('nothing a default rule matches survives, and nothing else changes', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const out = defaults.tree(input(d));
        expect(out).toEqual(expected(d));
        expect(secretsLeft(out)).toBe(false);
        for (const s of strings(out)) expect(holdsCard(s)).toBe(false);
      }),
      { numRuns: runs(400) },
    );
  });

  it('secret-looking keys are recognised whatever their case and separators', () => {
    fc.assert(fc.property(secretKey, (k) => isSecretKey(k) && isSecretKey(k.toUpperCase()) && isSecretKey(k.toLowerCase())));
  });

  it('any text: no card number survives, and text without 13 digits in a run is returned as it is', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.array(fc.oneof(fc.constantFrom(' ', '-', 'x', '.'), fc.integer({ min: 0, max: 9 }).map(String), cardArb), { maxLength: 30 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, (s) => {
        const out = defaults.text(s);
        expect(holdsCard(out)).toBe(false);
        if (!/[0-9](?:[ -]?[0-9]){12}/.test(s)) expect(out).toBe(s);
      }),
      { numRuns: runs(1000) },
    );
  });
});
