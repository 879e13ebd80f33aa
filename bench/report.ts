import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ROOT } from '../test/support/processes.ts';
import type { LoadResult } from './load-run.ts';
import type { ConsumerOnlyResult } from './consumer-only.ts';
import { STAGES, type Breakdown } from './visibility-breakdown.ts';

// Prints the figures as a table with the issue's bars beside them, and writes them as JSON.

type Row = [string, string, string, string];

const fmt = (n: number | null | undefined, unit = '') => (n === null || n === undefined || Number.isNaN(n) ? '-' : `${Math.round(n).toLocaleString('en-US')}${unit}`);
const verdict = (ok: boolean | null) => (ok === null ? '' : ok ? 'ok' : 'MISSED');

function table(rows: Row[]): string {
  const head: Row = ['measure', 'value', 'bar', ''];
  const all = [head, ...rows];
  const w = [0, 1, 2, 3].map((i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: Row) => `  ${r.map((c, i) => (i === 1 ? c.padStart(w[i]) : c.padEnd(w[i]))).join('  ')}`.trimEnd();
  return [line(head), `  ${w.map((n) => '-'.repeat(n)).join('  ')}`, ...rows.map(line)].join('\n');
}

export function loadTable(r: LoadResult): string {
  const rows: Row[] = [];
  const bar = (name: string, value: string, barText: string, ok: boolean | null) => rows.push([name, value, barText, verdict(ok)]);
  const isDist = r.mode === 'distributed';
  bar('log events/s acknowledged', fmt(r.logs.eventsPerSec), '>= 50,000', r.logs.eventsPerSec >= 50_000);
  bar('log requests/s (200)', fmt(r.logs.requestsPerSec), '', null);
  bar('request latency p50', fmt(r.logs.latencyMs.p50, ' ms'), '', null);
  bar('request latency p99', fmt(r.logs.latencyMs.p99, ' ms'), '< 250 ms', r.logs.latencyMs.p99 !== null && r.logs.latencyMs.p99 < 250);
  const notOk = Object.entries(r.logs.statuses).filter(([s]) => s !== '200');
  bar('log requests not 200', notOk.length ? notOk.map(([s, n]) => `${n}x${s}`).join(' ') : '0', '', null);
  const names: Record<string, string> = { log: 'logs', error: 'errors', span: 'traces', llm: 'llm' };
  for (const k of ['log', 'error', 'span', 'llm'] as const) {
    const v = r.visibleMs[k];
    const label = `POST-to-visible ${names[k]}`;
    bar(`${label} p50`, fmt(v.p50, ' ms'), '', null);
    bar(`${label} p99 (n=${v.n}${v.missing ? `, ${v.missing} never seen` : ''})`, fmt(v.p99, ' ms'), '< 3,000 ms', v.n > 0 ? v.p99! < 3000 && v.missing === 0 : null);
  }
  for (const k of ['error', 'span', 'llm'] as const) {
    const x = r.kinds[k];
    bar(`${names[k]} requests (200/sent), p99`, `${x.ok}/${x.requests}, ${fmt(x.latencyMs.p99, ' ms')}`, '', null);
  }
  bar(`${isDist ? 'receiver' : 'process'} RSS peak`, fmt(r.receiverMemoryMb.peakMb, ' MB'), isDist ? '< 300 MB' : '', isDist ? r.receiverMemoryMb.peakMb < 300 : null);
  bar(
    `${isDist ? 'receiver' : 'process'} RSS start / end / VmHWM`,
    `${fmt(r.receiverMemoryMb.startMb)} / ${fmt(r.receiverMemoryMb.endMb)} / ${fmt(r.receiverMemoryMb.hwmMb)} MB`,
    '',
    null,
  );
  for (const c of r.consumers) {
    bar(`${c.label} rows/s written (load avg)`, fmt(c.rowsPerSecDuringLoad), '', null);
    bar(`${c.label} rows/s (best 1 s)`, fmt(c.peakRowsPerSec), '', null);
    bar(`${c.label} caught up after load`, c.catchUpAfterLoadS === null ? 'not in 60 s' : `${c.catchUpAfterLoadS} s`, '', null);
  }
  for (const [name, cores] of Object.entries(r.cpuCores)) bar(`CPU ${name}`, `${cores.toFixed(2)} cores`, '', null);
  bar('visibility polls (p50 round trip)', `${r.visibilityPolls.polls} (${fmt(r.visibilityPolls.pollMs.p50, ' ms')})`, '', null);
  return table(rows);
}

/** Where the log probes' POST-to-visible went, stage by stage, and the slowest probes' stages. */
export function breakdownTable(b: Breakdown): string {
  const w = Math.max(...STAGES.map(([name]) => name.length));
  const lines = [
    `  where POST-to-visible goes (log probes: ${b.probes} broken down${b.unmatched ? `, ${b.unmatched} not found` : ''}; ms)`,
    `  ${'stage'.padEnd(w)}  ${'p50'.padStart(6)}  ${'p99'.padStart(6)}  ${'max'.padStart(6)}  slowest probes  what`,
  ];
  for (const [name, what] of STAGES) {
    const s = b.stages[name];
    const slow = b.slowest.map((r) => fmt(r[name]).padStart(6)).join(' ');
    lines.push(`  ${name.padEnd(w)}  ${fmt(s.p50).padStart(6)}  ${fmt(s.p99).padStart(6)}  ${fmt(s.max).padStart(6)}  ${slow}  ${what}`);
  }
  return lines.join('\n');
}

export function consumerOnlyTable(r: ConsumerOnlyResult): string {
  return table([
    ['prefill (direct to Kafka)', `${fmt(r.prefill.messages)} msgs, ${fmt(r.prefill.messagesPerSec)}/s`, '', ''],
    ['one consumers process: log rows/s', fmt(r.consumer.rowsPerSec), '>= 100,000', verdict(r.consumer.rowsPerSec >= 100_000)],
    ['  rows/s including start-up', fmt(r.consumer.rowsPerSecFromStart), '', ''],
    ['  rows written / dead-lettered', `${fmt(r.consumer.rows)} / ${fmt(r.consumer.deadLettered)}`, '', ''],
    ['  time from first write / start', `${r.consumer.secondsFromFirstWrite} s / ${r.consumer.secondsFromStart} s`, '', ''],
    ['  insert batches', fmt(r.consumer.batches), '', ''],
    ['  consumer RSS peak', fmt(r.consumer.peakRssMb, ' MB'), '', ''],
    ...Object.entries(r.cpuCores).map(([name, cores]): Row => [`CPU ${name}`, `${cores.toFixed(2)} cores`, '', '']),
  ]);
}

export function writeResults(out: string, result: unknown, extra: Record<string, unknown>): string {
  const path = resolve(ROOT, out);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ ...extra, result }, null, 2)}\n`);
  return path;
}
