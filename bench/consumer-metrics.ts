// Samples a consumers process's /metrics (written / dead-lettered counters and lag per
// sink) once a second, so that rows written per second can be read over any window.

export interface SinkSample {
  name: string;
  written: number;
  deadLettered: number;
  lag: number | null;
}

export interface MetricsSample {
  at: number;
  sinks: SinkSample[];
}

export async function readMetrics(url: string): Promise<SinkSample[]> {
  const r = await fetch(`${url}/metrics`, { headers: { accept: 'application/json' } });
  if (!r.ok) throw new Error(`/metrics ${r.status}`);
  const b = (await r.json()) as { consumers: Array<{ name: string; written: number; deadLettered: number; lag: number | null }> };
  return b.consumers.map((c) => ({ name: c.name, written: c.written, deadLettered: c.deadLettered, lag: c.lag }));
}

export class MetricsSampler {
  readonly samples: MetricsSample[] = [];
  private timer: NodeJS.Timeout;
  private busy = false;

  constructor(
    readonly label: string,
    private readonly url: string,
    everyMs = 1000,
  ) {
    this.timer = setInterval(() => void this.sample(), everyMs);
  }

  async sample(): Promise<MetricsSample | null> {
    if (this.busy) return null;
    this.busy = true;
    try {
      const s = { at: performance.now(), sinks: await readMetrics(this.url) };
      this.samples.push(s);
      return s;
    } catch {
      return null;
    } finally {
      this.busy = false;
    }
  }

  stop() {
    clearInterval(this.timer);
  }

  /** Rows written by one sink (or all) between two instants, per second. */
  rate(fromAt: number, toAt: number, sink?: string): { rows: number; perSec: number; peakPerSec: number } {
    const total = (s: MetricsSample) => s.sinks.filter((x) => !sink || x.name === sink).reduce((n, x) => n + x.written, 0);
    const inWin = this.samples.filter((s) => s.at >= fromAt - 1 && s.at <= toAt + 1);
    if (inWin.length < 2) return { rows: 0, perSec: 0, peakPerSec: 0 };
    const a = inWin[0];
    const b = inWin[inWin.length - 1];
    let peak = 0;
    for (let i = 1; i < inWin.length; i++) {
      const dt = (inWin[i].at - inWin[i - 1].at) / 1000;
      if (dt > 0.2) peak = Math.max(peak, (total(inWin[i]) - total(inWin[i - 1])) / dt);
    }
    const rows = total(b) - total(a);
    return { rows, perSec: rows / ((b.at - a.at) / 1000), peakPerSec: peak };
  }
}
