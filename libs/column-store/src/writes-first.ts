// One engine connection runs one statement at a time (chdb in-process; the stand-in's session):
// writes (inserts, commands) are taken before any waiting read, so a slow read holds an insert
// back by at most the read in flight, itself bounded by the read limits (read-limits.ts), and
// the 2-second visibility holds while people search (docs/architecture.md).

export interface WritesFirst {
  run<T>(kind: 'write' | 'read', job: () => Promise<T>): Promise<T>;
}

export function writesFirst(): WritesFirst {
  const lanes = { write: [] as Array<() => void>, read: [] as Array<() => void> };
  let busy = false;
  const next = () => {
    if (busy) return;
    const go = lanes.write.shift() ?? lanes.read.shift();
    if (go) {
      busy = true;
      go();
    }
  };
  return {
    run: (kind, job) =>
      new Promise((resolve, reject) => {
        lanes[kind].push(() => {
          job()
            .then(resolve, reject)
            .finally(() => {
              busy = false;
              next();
            });
        });
        next();
      }),
  };
}
