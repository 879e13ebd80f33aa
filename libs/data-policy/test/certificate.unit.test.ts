import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BudgetSpent, compileScrubber, luhn, scrubBudget, scrubbingSchema, scrubCertificate, scrubEvents, type ScrubBudget } from '../src/index.ts';
import { runs, SEED } from '../../../test/support/property.ts';

// The scrubber's certificate (certificate.ts): scrubEvents answers false only when scrubbing
// left every value exactly as it was given, under any settings; a request it answers false
// for may go to Kafka as sent (docs/topics.md, "Version 3"), so a false "unchanged" would
// forward a secret. Held over generated events and settings: unchanged answers are exact.

function card(body: number[]): string {
  for (let check = 0; check <= 9; check++) if (luhn([...body, check].join(''))) return [...body, check].join('');
  throw new Error('unreachable');
}
const words = fc.constantFrom('order', 'user', 'id', 'note', 'a@b.co', '10.0.0.1', '::1', 'secret_abc', 'fe80::1', '[Filtered]', '', 'password');
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  words,
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 18 }).map(card),
  fc.tuple(words, words).map(([a, b]) => `${a} ${b}`),
);
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('password', 'api_key', 'token', 'author', 'email', 'ssn', 'session.id', 'input_tokens', 'tax_id'));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.tuple(key, tie('v')),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;
const event = fc.record({ message: text, metadata: fc.dictionary(key, value, { maxKeys: 5 }) });
const rule = fc.oneof(
  fc.record({ match: fc.constantFrom('email', 'ipv4', 'ipv6', 'ip', 'creditcard', 'secret_keys'), action: fc.constantFrom('filter', 'remove', 'mask', 'hash') }),
  fc.record({ match: fc.constant('key'), pattern: fc.constantFrom('^tax_id$', 'mail', 'id'), action: fc.constantFrom('filter', 'remove', 'mask', 'hash') }),
  fc.record({ match: fc.constant('regex'), pattern: fc.constantFrom('secret_[a-z]+', 'order', '[0-9]{3}'), action: fc.constantFrom('filter', 'remove', 'mask', 'hash') }),
);
const settings = fc.record({ defaults: fc.boolean(), rules: fc.array(rule, { maxLength: 3 }) }).map((s) => scrubbingSchema.parse(s));

describe("the scrubber's certificate", () => {
  it('says unchanged only when every value is exactly as it was given', () => {
    let unchanged = 0;
    let changed = 0;
    fc.assert(
      fc.property(settings, fc.array(event, { minLength: 1, maxLength: 4 }), (s, events) => {
        const scrubber = compileScrubber(s, 'salt');
        if (!scrubber) return;
        const given = JSON.stringify(events);
        const copy = JSON.parse(given);
        const edited = scrubEvents('log', copy, scrubber, scrubBudget());
        if (!edited) unchanged++;
        else changed++;
        // Never "unchanged" for a change; and a change is never missed either (so the certificate is worth having).
        expect(edited, `${JSON.stringify(s)} ${given}`).toBe(JSON.stringify(copy) !== given);
      }),
      { numRuns: runs(2000), seed: SEED },
    );
    expect(unchanged).toBeGreaterThan(0);
    expect(changed).toBeGreaterThan(0);
  });

  it('is never given past the budget: a value filtered for want of time is a change', () => {
    const spent: ScrubBudget = {
      take: () => false,
      charge: () => {
        throw new BudgetSpent();
      },
    };
    const scrubber = compileScrubber(scrubbingSchema.parse({ rules: [{ match: 'regex', pattern: 'zzz' }] }), 'salt')!;
    expect(scrubEvents('log', [{ message: 'harmless', metadata: {} }], scrubber, spent)).toBe(true);
    expect(scrubEvents('log', [{ message: 'harmless', metadata: {} }], scrubber, scrubBudget())).toBe(false);
  });

  it('finds a secret key, a card number, a pair and a project rule', () => {
    const scrubber = compileScrubber(scrubbingSchema.parse({ rules: [{ match: 'regex', pattern: 'secret_[a-z]+' }] }), 'salt')!;
    const one = (e: object) => scrubEvents('log', [{ message: '', metadata: {}, ...e }], scrubber, scrubBudget());
    expect(one({ metadata: { password: 'hunter2' } })).toBe(true);
    expect(one({ metadata: { password: null } })).toBe(false); // null stays null: nothing to change
    expect(one({ message: 'paid with 4111 1111 1111 1111' })).toBe(true);
    expect(one({ metadata: { headers: [['Authorization', 'Bearer x']] } })).toBe(true);
    expect(one({ metadata: { deep: [{ note: 'a secret_token here' }] } })).toBe(true);
    expect(one({ message: 'order 42 placed', metadata: { route: '/checkout', n: 3 } })).toBe(false);
  });

  it('names the rules it was given by a digest, and says when there are none', () => {
    const defaults = scrubbingSchema.parse({});
    const own = scrubbingSchema.parse({ rules: [{ match: 'email' }] });
    expect(scrubCertificate(null)).toBe('unchanged rules=none');
    expect(scrubCertificate(scrubbingSchema.parse({ defaults: false }))).toBe('unchanged rules=none');
    expect(scrubCertificate(defaults)).toMatch(/^unchanged rules=[0-9a-f]{16}$/);
    expect(scrubCertificate(defaults)).toBe(scrubCertificate(scrubbingSchema.parse({})));
    expect(scrubCertificate(own)).not.toBe(scrubCertificate(defaults));
  });
});
