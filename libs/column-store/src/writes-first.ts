// One engine connection runs one statement at a time (chdb in-process; the stand-in's session):
// writes (inserts, commands) are taken before any waiting read, so a slow read holds an insert
// back by at most the read in flight, itself bounded by the read limits (read-limits.ts), and
// the 2-second visibility holds while people search (docs/api.md, "Read limits"). Waiting reads
// go by their ClickHouse `priority` (lower first: lookups before searches), each in arrival order.
//
// A lookup is often several statements (a page of logs reads the newest slice, then older ones):
// its next statement is sent only once the last one's rows are in. So when a read ends while only
// reads of a lower priority wait, the connection is held for a moment (`holdMs`; 0: until this
// turn of the event loop ends) for that read's next statement: otherwise every statement of
// another project's page would wait for a search (docs/security.md, "Bounds").

export interface WritesFirst {
  run<T>(kind: 'write' | 'read', job: () => Promise<T>, priority?: number): Promise<T>;
}

/** How long an in-process connection waits for a lookup's next statement: until the event loop's turn ends. */
export const IN_PROCESS_HOLD_MS = 0;

export function writesFirst(holdMs = IN_PROCESS_HOLD_MS): WritesFirst {
  const writes: Array<() => void> = [];
  const reads: Array<{ priority: number; go: () => void }> = [];
  let busy = false;
  /** The priority of the read that just ended, while the connection waits for its next statement. */
  let held: { priority: number; timer: NodeJS.Timeout | NodeJS.Immediate | null } | null = null;
  const unhold = () => {
    if (held?.timer) {
      if (holdMs === 0) clearImmediate(held.timer as NodeJS.Immediate);
      else clearTimeout(held.timer as NodeJS.Timeout);
    }
    held = null;
  };
  const start = (go: () => void) => {
    unhold();
    busy = true;
    go();
  };
  const next = () => {
    if (busy) return;
    const write = writes.shift();
    if (write) return start(write);
    if (reads.length === 0) return unhold();
    let best = 0;
    for (let i = 1; i < reads.length; i++) if (reads[i].priority < reads[best].priority) best = i;
    if (held && reads[best].priority > held.priority) {
      const h = held;
      h.timer ??=
        holdMs === 0
          ? setImmediate(() => {
              if (held === h) held = null;
              next();
            })
          : setTimeout(() => {
              if (held === h) held = null;
              next();
            }, holdMs);
      return;
    }
    start(reads.splice(best, 1)[0].go);
  };
  return {
    run: (kind, job, priority = 0) =>
      new Promise((resolve, reject) => {
        const go = () => {
          job()
            .then(resolve, reject)
            .finally(() => {
              busy = false;
              if (kind === 'read') held = { priority, timer: null };
              next();
            });
        };
        if (kind === 'write') writes.push(go);
        else reads.push({ priority, go });
        next();
      }),
  };
}
