import { RE2JS } from 're2js';
import { compileScrubber, MAX_PROGRAM_SIZE, scrubbingSchema, WORST_NS_PER_CHAR_INSTRUCTION, type Scrubber } from '@devtrail/data-policy';

// `npm run bench:scrub-cost -- [chars]`: the worst cost per input character of scrubbing
// (docs/security.md, docs/benchmarks.md). Each rule runs over texts written against it (runs of
// the characters it looks at) on a fresh compile (RE2's DFA states are built on first use, the
// dearest run) and again (warm). The built-in rules run under no budget: they are linear and their
// worst case is the figure below times the body limit. Operators' patterns are bounded by program
// size and the per-request budget, which charges WORST_NS_PER_CHAR_INSTRUCTION per character and
// instruction: the figure measured here per instruction must stay below it.
// A script, not a test: docs/benchmarks.md records its figures.

const CHARS = Number(process.argv[2] ?? 20_000);
const repeat = (unit: string) => unit.repeat(Math.ceil(CHARS / unit.length)).slice(0, CHARS);
const INPUTS = {
  'a…': repeat('a'),
  'digits, spaced (card-like)': repeat('4111 1111 1111 111'),
  digits: repeat('7'),
  'a@a.': repeat('a@a.'),
  '1.1.1.': repeat('1.1.1.'),
  'hex and colons': repeat('ab:'),
  words: repeat('lorem ipsum dolor sit amet '),
};

function timeText(make: () => Scrubber, text: string): { cold: number; warm: number } {
  const s = make();
  let t0 = performance.now();
  s.text(text);
  const cold = performance.now() - t0;
  t0 = performance.now();
  s.text(text);
  return { cold, warm: performance.now() - t0 };
}

const rows: string[] = [];
const measure = (name: string, rules: unknown[], defaults: boolean, size?: number) => {
  const policy = scrubbingSchema.parse({ defaults, rules });
  // An unlimited budget: the point is the raw cost.
  const unlimited = { take: () => true, charge: () => {} };
  const make = () => {
    const s = compileScrubber(policy, 'salt')!;
    return { tree: (v: unknown) => s.tree(v, unlimited), text: (t: string) => s.text(t, unlimited), edits: s.edits };
  };
  let worst = { input: '', ns: 0, warm: 0 };
  for (const [input, text] of Object.entries(INPUTS)) {
    const { cold, warm } = timeText(make, text);
    const ns = (cold * 1e6) / text.length;
    if (ns > worst.ns) worst = { input, ns, warm: (warm * 1e6) / text.length };
  }
  const perInst = size ? ` | ${(worst.ns / size).toFixed(1)}` : ' | –';
  rows.push(`| ${name} | ${size ?? '–'} | ${worst.input} | ${worst.ns.toFixed(0)} | ${worst.warm.toFixed(0)}${perInst} |`);
};

// Warm the JIT on every rule first, so first-run figures are RE2's state building, not V8's.
const saved = rows.length;
measure('warm-up', [{ match: 'email' }, { match: 'ip' }, { match: 'regex', pattern: 'x{1,9}y' }], true);
rows.length = saved;
measure('default rules (secret keys, card numbers)', [], true);
for (const m of ['email', 'ipv4', 'ipv6', 'ip', 'creditcard'] as const) measure(`built-in \`${m}\``, [{ match: m }], false);
const custom = ['[a-z]{1,190}0', '\\w{1,190}!', '.{1,190}0', '(?:a|aa){1,75}b', '\\pL{1,190}x', 'secret_[a-z0-9]+'];
for (const p of custom) {
  const size = RE2JS.compile(p, RE2JS.CASE_INSENSITIVE).programSize();
  if (size > MAX_PROGRAM_SIZE) throw new Error(`${p}: ${size} instructions, past the bound`);
  measure(`\`${p}\``, [{ match: 'regex', pattern: p }], false, size);
}
console.log(
  `${CHARS} characters per text; ns per character, the worst input of each rule (budget charge: ${WORST_NS_PER_CHAR_INSTRUCTION} ns per character and instruction)\n`,
);
console.log('| rule | RE2 instructions | worst input | ns/char, first run | ns/char, again | ns/char/instruction |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
