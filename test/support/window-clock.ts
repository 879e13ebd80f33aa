// The receivers' rate-limit and quota windows on a clock of the suite's choosing
// (RATE_WINDOW_SHIFT_MS, docs/configuration.md): a minute window turns when the suite wants it
// to, instead of the suite waiting for the wall clock's next minute.

const MINUTE = 60_000;

export interface WindowClock {
  /** The environment that puts a receiver on this clock. */
  env: { RATE_WINDOW_SHIFT_MS: string };
  /** The first moment (wall clock, ms) at least `aheadMs` from now at which a window turns. */
  nextTurn(aheadMs: number): number;
}

/** A clock whose minute windows turn `turnInMs` from now, and every minute after. */
export function windowClock(turnInMs: number): WindowClock {
  const turnAt = Date.now() + turnInMs;
  const shift = (MINUTE - (turnAt % MINUTE)) % MINUTE;
  return {
    env: { RATE_WINDOW_SHIFT_MS: String(shift) },
    nextTurn(aheadMs) {
      const earliest = Date.now() + aheadMs;
      return earliest <= turnAt ? turnAt : turnAt + Math.ceil((earliest - turnAt) / MINUTE) * MINUTE;
    },
  };
}
