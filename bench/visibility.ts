// POST-to-visible: probes (a unique marker per sampled request) are remembered with the
// time their 200 arrived; a poller asks the store which markers it can see now and
// records, per probe, the time from the 200 to the poll answer that first showed it
// (so the figure includes up to one poll round trip; polls run every `pollMs`).

export type ProbeKind = 'log' | 'error' | 'span' | 'llm';
export const PROBE_KINDS: ProbeKind[] = ['log', 'error', 'span', 'llm'];

export interface Probe {
  kind: ProbeKind;
  marker: string;
  /** performance.now() of the 200. */
  ackAt: number;
  /** Date.now() of the 200 (for time-range filters). */
  ackWall: number;
}

/** Which of these markers the store shows now, per kind. */
export type Lookup = (pending: Record<ProbeKind, Probe[]>) => Promise<Set<string>>;

/** A probe the store showed: when its 200 came, when the poll that showed it started, and its answer (Date.now() ms). */
export interface Seen {
  kind: ProbeKind;
  marker: string;
  ackWall: number;
  pollStartWall: number;
  seenWall: number;
}

export class VisibilityTracker {
  private pending = new Map<string, Probe>();
  readonly latencies: Record<ProbeKind, number[]> = { log: [], error: [], span: [], llm: [] };
  readonly seen: Seen[] = [];
  polls = 0;
  pollErrors = 0;
  lastPollError: string | null = null;
  pollMs: number[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly lookup: Lookup,
    private readonly intervalMs = 200,
  ) {}

  add(kind: ProbeKind, marker: string, ackAt: number) {
    this.pending.set(`${kind}\u0000${marker}`, { kind, marker, ackAt, ackWall: Math.floor(Date.now() - (performance.now() - ackAt)) });
  }

  get pendingCount() {
    return this.pending.size;
  }

  pendingByKind(): Record<ProbeKind, number> {
    const out: Record<ProbeKind, number> = { log: 0, error: 0, span: 0, llm: 0 };
    for (const p of this.pending.values()) out[p.kind]++;
    return out;
  }

  start() {
    this.loop = (async () => {
      while (!this.stopped) {
        const started = performance.now();
        if (this.pending.size > 0) await this.pollOnce();
        const wait = this.intervalMs - (performance.now() - started);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    })();
  }

  private async pollOnce() {
    const byKind: Record<ProbeKind, Probe[]> = { log: [], error: [], span: [], llm: [] };
    for (const p of this.pending.values()) byKind[p.kind].push(p);
    const t0 = performance.now();
    const pollStartWall = Date.now();
    try {
      const seen = await this.lookup(byKind);
      const at = performance.now();
      const seenWall = Date.now();
      this.polls++;
      this.pollMs.push(at - t0);
      for (const [k, p] of this.pending) {
        if (p.ackAt <= t0 && seen.has(p.marker)) {
          this.latencies[p.kind].push(at - p.ackAt);
          this.seen.push({ kind: p.kind, marker: p.marker, ackWall: p.ackWall, pollStartWall, seenWall });
          this.pending.delete(k);
        }
      }
    } catch (err) {
      this.pollErrors++;
      this.lastPollError = (err as Error).message;
    }
  }

  /** Waits until every probe was seen or the timeout passed; returns how many never showed. */
  async drain(timeoutMs: number): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (this.pending.size > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    return this.pending.size;
  }

  async stop() {
    this.stopped = true;
    await this.loop;
  }
}
