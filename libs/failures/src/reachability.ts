// Whether a backend can be reached, as each adapter sees it from its own calls, logged
// once per change: an outage is one warning when it starts and one line when it ends, not
// a line per failed request or retry (those go to debug, where the adapters put them).
//
// A backend that has just come back often fails a few more calls while it settles (a Kafka
// broker's partition leaders, a pool's stale connections). A failure within `settleMs` of a
// recovery is therefore held: it is logged as a new outage only when no call is answered for
// `settleMs` after it, so one outage reads as one pair of lines however its end flaps.

/** How an adapter hands a line to the service's logger (pino's levels, pino's argument order reversed). */
export type LogFn = (level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', msg: string, extra: Record<string, unknown>) => void;

export interface Reachability {
  /** A call got an answer from the backend (an answer that refuses the request counts too). */
  reached(): void;
  /** A call got no answer: refused, reset, timed out. */
  unreachable(err: unknown): void;
  /** True from the first unanswered call until the next answered one. */
  readonly down: boolean;
}

export interface ReachabilityOptions {
  now?: () => number;
  /** How long after a recovery a failure must last before it is logged as a new outage. */
  settleMs?: number;
}

/** Starts as reachable, so a backend that is down when the process starts is logged too. */
export function reachability(backend: string, log: LogFn | undefined, opts: ReachabilityOptions = {}): Reachability {
  const now = opts.now ?? Date.now;
  const settleMs = opts.settleMs ?? 5000;
  let downSince: number | undefined;
  let recoveredAt = Number.NEGATIVE_INFINITY;
  /** The timer of a failure held after a recovery (module comment). */
  let held: ReturnType<typeof setTimeout> | undefined;

  const logOutage = (since: number, err: unknown) => {
    downSince = since;
    log?.('warn', `${backend} unreachable`, { backend, err: (err as Error)?.message ?? String(err) });
  };
  return {
    reached() {
      if (held) {
        clearTimeout(held);
        held = undefined;
      }
      if (downSince === undefined) return;
      const downMs = now() - downSince;
      downSince = undefined;
      recoveredAt = now();
      log?.('info', `${backend} reachable again`, { backend, down_ms: downMs });
    },
    unreachable(err) {
      if (downSince !== undefined || held) return;
      const at = now();
      if (at - recoveredAt >= settleMs) return logOutage(at, err);
      held = setTimeout(() => {
        held = undefined;
        logOutage(at, err);
      }, settleMs);
      held.unref?.();
    },
    get down() {
      return downSince !== undefined || held !== undefined;
    },
  };
}
