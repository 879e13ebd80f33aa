// Trace-consistent sampling (docs/data.md#sampling): an event is kept when the hash of its
// trace id, as a fraction of 2^32, is below the kind's rate. Every receiver computes the same
// hash, so a trace's spans and logs are kept or dropped together wherever they arrive (and
// with a lower rate for logs than for spans, every trace whose logs are kept keeps its spans).
// An event without a trace id is sampled by its event id instead: its own trace.

/** FNV-1a, 32 bits, over the id's UTF-16 code units (ids are ASCII in practice). */
export function traceHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Whether an event of this trace (or, without one, this event id) is kept at `rate` (0 to 1). */
export function keepTrace(id: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return traceHash(id.toLowerCase()) < rate * 2 ** 32;
}
