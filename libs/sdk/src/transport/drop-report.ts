// What the SDK lost while the receiver could not be reached (or refused records), told to the
// receiver itself once it answers again (docs/sdk.md#delivery): one warn log from the
// `devtrail.sdk` context with the counts by reason since the last report, so a project sees its
// gaps in its own logs and not only in the app's console.
/** Why records were dropped: each a counter of TransportStats (`dropped<Reason>`). */
export type DropReason = 'QueueFull' | 'TooLarge' | 'Rejected' | 'RetriesExhausted' | 'AfterClose' | 'AtExit';

export type DropCounts = Partial<Record<`dropped${DropReason}`, number>>;

// Records the receiver refused are counted by the receiver itself; the rest it never saw.
const REASONS: Array<`dropped${DropReason}`> = ['droppedQueueFull', 'droppedTooLarge', 'droppedRetriesExhausted'];

/** The log to send and the counts it covers, or undefined when nothing was dropped since `reported`. */
export function dropReport(counters: Required<DropCounts>, reported: DropCounts): { log: object; upTo: DropCounts } | undefined {
  const since: Record<string, number> = {};
  let total = 0;
  for (const reason of REASONS) {
    const n = counters[reason] - (reported[reason] ?? 0);
    if (n > 0) {
      since[reason] = n;
      total += n;
    }
  }
  if (total === 0) return undefined;
  const upTo = Object.fromEntries(REASONS.map((r) => [r, counters[r]])) as DropCounts;
  return {
    upTo,
    log: {
      level: 'warn',
      message: `devtrail SDK dropped ${total} record(s) since its last report`,
      timestamp: new Date().toISOString(),
      context: 'devtrail.sdk',
      metadata: { 'sdk.dropped': total, ...since },
    },
  };
}
