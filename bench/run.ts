import os from 'node:os';
import { execSync } from 'node:child_process';
import { parseArgs } from './args.ts';
import { runLoad } from './load-run.ts';
import { runConsumerOnly } from './consumer-only.ts';
import { breakdownTable, consumerOnlyTable, loadTable, writeResults } from './report.ts';
import { stackUp } from '../test/support/stack.ts';

// `npm run bench -- [flags]` (see args.ts or --help). A script, not a test: it starts
// what it measures, prints a table, writes bench/results/latest.json, cleans up, exits.

const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if ((args.mode === 'distributed' || args.consumerOnly) && !(await stackUp())) {
    throw new Error('the local stack is not running (Kafka :19092, ClickHouse :18123, PostgreSQL :15432): make services-up');
  }
  const started = new Date().toISOString();
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
  let commit = '';
  try {
    commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    /* not a checkout */
  }
  if (args.consumerOnly) {
    const r = await runConsumerOnly(args, log);
    console.log(`\ndevtrail bench: consumer only (${machine.cpus} CPUs, load average at start ${machine.loadAvgAtStart.join(' ')})\n`);
    console.log(consumerOnlyTable(r));
    const path = writeResults(args.out, r, { started, commit, machine });
    console.log(`\n  written to ${path}`);
  } else {
    const r = await runLoad(args, log);
    console.log(
      `\ndevtrail bench: ${r.mode}, ${r.durationS} s, ${args.concurrency} in flight, ${args.batch} logs a request${args.protocol === 'otlp' ? ' as OTLP/HTTP protobuf' : ''} (${machine.cpus} CPUs, load average at start ${machine.loadAvgAtStart.join(' ')})\n`,
    );
    console.log(loadTable(r));
    if (r.visibleBreakdown) console.log(`\n${breakdownTable(r.visibleBreakdown)}`);
    const path = writeResults(args.out, r, { started, commit, machine });
    console.log(`\n  written to ${path}`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    log(`error: ${(err as Error).stack ?? err}`);
    process.exit(1);
  },
);
