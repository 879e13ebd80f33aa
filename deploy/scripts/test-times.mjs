// Prints a run's lane times and its ten slowest files from .devtrail/test-results/durations.json
// (written by test/support/durations-reporter.ts).
import { readFileSync } from 'node:fs';

const r = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(`\ntest time ${s(r.wallMs)} with ${r.workers ?? 'default'} workers; per lane (span, sum of files):`);
for (const [name, l] of Object.entries(r.lanes)) console.log(`  ${name.padEnd(7)} ${s(l.spanMs).padStart(8)} ${s(l.sumMs).padStart(9)}  ${l.files} files`);
console.log('slowest files:');
for (const f of r.files.slice(0, 10)) console.log(`  ${s(f.ms).padStart(8)}  ${f.lane.padEnd(7)} ${f.file}`);
