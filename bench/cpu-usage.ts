import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../test/support/processes.ts';
import { descendants } from './proc-memory.ts';

// CPU time per process over a window, from /proc (utime + stime, all threads), so the
// figures can say which process the machine's two cores went to. `machine` is every
// process's busy time, others' work on this machine included.

const TICK_MS = 10; // getconf CLK_TCK = 100 on Linux

function ticksOf(pid: number): number {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]); // utime, stime (fields 14, 15)
  } catch {
    return 0;
  }
}

function machineBusyTicks(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  return f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
}

/** The local stack's processes (pid files of deploy/scripts), PostgreSQL with its backends. */
export function stackPids(): Record<string, () => number[]> {
  const pidFile = (name: string) => {
    try {
      return Number(readFileSync(join(ROOT, '.devtrail/run', `${name}.pid`), 'utf8').trim());
    } catch {
      return 0;
    }
  };
  return {
    kafka: () => [pidFile('kafka')].filter(Boolean),
    'clickhouse stand-in': () => [pidFile('clickhouse')].filter(Boolean),
    postgres: () => {
      const p = pidFile('postgres');
      return p ? [p, ...descendants(p)] : [];
    },
  };
}

export class CpuMeter {
  private start = new Map<string, number>();
  private startMachine = 0;
  private startSelf = process.cpuUsage();
  private t0 = performance.now();

  constructor(private readonly procs: Record<string, () => number[]>) {}

  begin() {
    this.t0 = performance.now();
    this.startMachine = machineBusyTicks();
    this.startSelf = process.cpuUsage();
    for (const [name, pids] of Object.entries(this.procs))
      this.start.set(
        name,
        pids().reduce((n, p) => n + ticksOf(p), 0),
      );
  }

  /** Cores used on average since begin(), per process, plus the bench itself and the whole machine. */
  end(): Record<string, number> {
    const secs = (performance.now() - this.t0) / 1000;
    const cores = (ms: number) => Math.round((ms / 1000 / secs) * 100) / 100;
    const out: Record<string, number> = {};
    for (const [name, pids] of Object.entries(this.procs)) out[name] = cores((pids().reduce((n, p) => n + ticksOf(p), 0) - (this.start.get(name) ?? 0)) * TICK_MS);
    const self = process.cpuUsage(this.startSelf);
    out['bench (load generator)'] = cores((self.user + self.system) / 1000);
    const ours = Object.values(out).reduce((a, b) => a + b, 0);
    const machine = cores((machineBusyTicks() - this.startMachine) * TICK_MS);
    out['other processes on the machine'] = Math.max(0, Math.round((machine - ours) * 100) / 100);
    out['machine total'] = machine;
    return out;
  }
}
