import { defaultFingerprintText, earlierFingerprints, fingerprint, fingerprintV2, previousFingerprint } from '@devtrail/kinds';
import { Rng, type Issue } from '../libs/kinds/test/grouping-corpus/kit.ts';
import { browserIssues, nodeIssues } from '../libs/kinds/test/grouping-corpus/javascript.ts';
import { pythonIssues } from '../libs/kinds/test/grouping-corpus/python.ts';
import { dotnetIssues, javaIssues } from '../libs/kinds/test/grouping-corpus/jvm-dotnet.ts';
import { goIssues, rubyIssues } from '../libs/kinds/test/grouping-corpus/go-ruby.ts';
import { osAndAddressIssues } from '../libs/kinds/test/grouping-corpus/os-and-addresses.ts';
import { typeIssues, wordingIssues } from '../libs/kinds/test/grouping-corpus/types-and-wordings.ts';
import { median } from './stats.ts';

// `npx tsx bench/fingerprint.ts`: CPU microseconds per error report to fingerprint it, over the
// grouping corpus's reports (docs/fingerprint.md): rule v1, rule v2 and v2 + v1 (what the
// receiver computed per report before rule v3), rule v3, and v3 with the earlier rules'
// fingerprints (what it computes now, docs/fingerprint.md#upgrading). Measured with
// process.cpuUsage, rounds interleaved, median of 7 (`-- 15` for more).

const issues: Issue[] = [
  ...nodeIssues,
  ...browserIssues,
  ...pythonIssues,
  ...javaIssues,
  ...dotnetIssues,
  ...goIssues,
  ...rubyIssues,
  ...osAndAddressIssues,
  ...typeIssues,
  ...wordingIssues,
];
const r = new Rng(30);
const reports = issues.flatMap((issue) => Array.from({ length: issue.reports }, (_, i) => issue.make(r, i)));

const ways: Array<[string, (x: (typeof reports)[number]) => unknown]> = [
  ['rule v1', (x) => previousFingerprint(x)],
  ['rule v2', (x) => fingerprintV2(x)],
  ['v2 + v1 (before)', (x) => (fingerprintV2(x), previousFingerprint(x))],
  ['rule v3', (x) => fingerprint(x)],
  ['v3 + earlier rules (after)', (x) => earlierFingerprints(x, fingerprint(x))],
  ['rule v3, text only (no hash)', (x) => defaultFingerprintText(x)],
];

function once(fn: (x: (typeof reports)[number]) => unknown): number {
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  let n = 0;
  while (performance.now() - w0 < 400) {
    for (const x of reports) fn(x);
    n += reports.length;
  }
  const c = process.cpuUsage(t0);
  return (c.user + c.system) / n;
}

for (const [, fn] of ways) for (const x of reports) fn(x); // warm-up
const runs = new Map<string, number[]>(ways.map(([name]) => [name, []]));
const ROUNDS = Number(process.argv[2] ?? 7);
for (let round = 0; round < ROUNDS; round++) for (const [name, fn] of ways) runs.get(name)!.push(once(fn));
console.log(
  `fingerprinting ${reports.length} corpus reports (${Math.round(reports.reduce((a, x) => a + x.stack_trace.length + x.error_message.length, 0) / reports.length)} characters a report)`,
);
for (const [name] of ways) console.log(`  ${name.padEnd(36)} ${median(runs.get(name)!).toFixed(2).padStart(7)} µs/report`);
const before = median(runs.get('v2 + v1 (before)')!);
const after = median(runs.get('v3 + earlier rules (after)')!);
console.log(`  after / before                       ${(after / before).toFixed(2).padStart(7)}x`);
