// Trace-consistent sampling (docs/data.md#sampling): an event is kept when the hash of its
// trace id, as a fraction of 2^32, is below the kind's rate. Every receiver computes the same
// hash, so a trace's spans and logs are kept or dropped together wherever they arrive (and
// with a lower rate for logs than for spans, every trace whose logs are kept keeps its spans).
// An event without a trace id is its own trace: kept by chance at the rate.

/** FNV-1a, 32 bits, over the trace id's UTF-16 code units (ids are ASCII in practice). */
export function traceHash(traceId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < traceId.length; i++) {
    h ^= traceId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Whether an event of this trace is kept at `rate` (0 to 1). */
export function keepTrace(traceId: string | undefined, rate: number, random: () => number = Math.random): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  if (!traceId) return random() < rate;
  return traceHash(traceId.toLowerCase()) < rate * 2 ** 32;
}
