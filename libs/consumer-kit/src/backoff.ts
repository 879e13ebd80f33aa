/** Exponential backoff with full jitter, capped. attempt starts at 0. */
export function backoffMs(attempt: number, baseMs = 250, capMs = 10_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 16));
  return Math.floor(ceiling / 2 + Math.random() * (ceiling / 2));
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
