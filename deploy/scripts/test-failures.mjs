// Prints each failed test of a vitest JSON report (file, name, the message's first lines), or a
// file that failed outside any test (a hook, an import), so a log's tail names what failed.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const r = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const first = (text, n) =>
  String(text ?? '')
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, n)
    .map((l) => `      ${l.slice(0, 300)}`)
    .join('\n');
const failed = [];
for (const file of r.testResults ?? []) {
  const name = relative(process.cwd(), file.name);
  const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
  for (const t of tests) failed.push(`  ${name} > ${t.fullName}\n${first(t.failureMessages?.join('\n'), 4)}`);
  if (file.status === 'failed' && tests.length === 0) failed.push(`  ${name} (outside a test)\n${first(file.message, 4)}`);
}
if (failed.length) console.log(`failed:\n${failed.join('\n')}`);
