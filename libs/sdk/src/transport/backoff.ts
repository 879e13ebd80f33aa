// Retry timing: exponential backoff with "equal jitter" (half fixed, half
// random) so many clients recovering from the same outage spread out, while
// each still waits at least half the nominal delay.

export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number = Math.random): number {
  const nominal = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(nominal / 2 + random() * (nominal / 2));
}

/** Longest Retry-After we obey; beyond it a misconfigured server would stall telemetry for good. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). Returns milliseconds. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Math.round(parseFloat(text) * 1000);
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/** 429 and 5xx are worth another try; any other 4xx will fail the same way again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
