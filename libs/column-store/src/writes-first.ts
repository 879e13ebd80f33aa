// One engine connection runs one statement at a time (chdb in-process; the stand-in's session):
// writes (inserts, commands) are taken before any waiting read, so a slow read holds an insert
// back by at most the read in flight, itself bounded by the read limits (read-limits.ts), and
// the 2-second visibility holds while people search (docs/api.md, "Read limits"). Waiting reads
// go by their ClickHouse `priority` (lower first: lookups before searches), each in arrival order.

export interface WritesFirst {
  run<T>(kind: 'write' | 'read', job: () => Promise<T>, priority?: number): Promise<T>;
}

export function writesFirst(): WritesFirst {
  const writes: Array<() => void> = [];
  const reads: Array<{ priority: number; go: () => void }> = [];
  let busy = false;
  const nextRead = () => {
    if (reads.length === 0) return undefined;
    let best = 0;
    for (let i = 1; i < reads.length; i++) if (reads[i].priority < reads[best].priority) best = i;
    return reads.splice(best, 1)[0].go;
  };
  const next = () => {
    if (busy) return;
    const go = writes.shift() ?? nextRead();
    if (go) {
      busy = true;
      go();
    }
  };
  return {
    run: (kind, job, priority = 0) =>
      new Promise((resolve, reject) => {
        const go = () => {
          job()
            .then(resolve, reject)
            .finally(() => {
              busy = false;
              next();
            });
        };
        if (kind === 'write') writes.push(go);
        else reads.push({ priority, go });
        next();
      }),
  };
}
