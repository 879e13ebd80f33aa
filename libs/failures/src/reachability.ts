// Whether a backend can be reached, as each adapter sees it from its own calls, logged
// once per change: an outage is one warning when it starts and one line when it ends, not
// a line per failed request or retry (those go to debug, where the adapters put them).

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

/** Starts as reachable, so a backend that is down when the process starts is logged too. */
export function reachability(backend: string, log: LogFn | undefined, now: () => number = Date.now): Reachability {
  let downSince: number | undefined;
  return {
    reached() {
      if (downSince === undefined) return;
      const downMs = now() - downSince;
      downSince = undefined;
      log?.('info', `${backend} reachable again`, { backend, down_ms: downMs });
    },
    unreachable(err) {
      if (downSince !== undefined) return;
      downSince = now();
      log?.('warn', `${backend} unreachable`, { backend, err: (err as Error)?.message ?? String(err) });
    },
    get down() {
      return downSince !== undefined;
    },
  };
}
