import { readFileSync, readdirSync } from 'node:fs';

// Resident memory of a process from /proc/<pid>/status: VmRSS now, VmHWM the kernel's peak.

export function memoryOf(pid: number): { rssMb: number; hwmMb: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs`; `peak` is the larger of sampled RSS and VmHWM. */
export class MemorySampler {
  private samples: number[] = [];
  private hwm = 0;
  private timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 500,
  ) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.sample();
  }

  private sample() {
    const m = memoryOf(this.pid);
    if (!m) return;
    this.samples.push(m.rssMb);
    this.hwm = Math.max(this.hwm, m.hwmMb);
  }

  stop(): { startMb: number; peakMb: number; endMb: number; hwmMb: number } {
    this.sample();
    clearInterval(this.timer);
    const r = (n: number) => Math.round(n * 10) / 10;
    return { startMb: r(this.samples[0] ?? NaN), peakMb: r(Math.max(...this.samples)), endMb: r(this.samples[this.samples.length - 1] ?? NaN), hwmMb: r(this.hwm) };
  }
}

/** The process ids below `root` (children, grandchildren, ...), from /proc/<pid>/stat. */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(d), ppid);
    } catch {
      /* gone */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [c, pp] of parent) if (pp === p) out.push(c), walk(c);
  };
  walk(root);
  return out;
}

export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}
