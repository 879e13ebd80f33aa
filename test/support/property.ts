// Property tests and fuzzing (docs/testing.md): every run takes a fresh seed, so each run
// explores new cases, and a quarter of the full count, so the run stays short; `npm run test:deep`
// takes the full counts. `make test` prints the seed; DEVTRAIL_TEST_SEED=<seed> replays a run.

/** Full counts (`npm run test:deep`). */
export const DEEP = process.env.DEVTRAIL_TEST_DEEP === '1';

/** The run's seed: from `make test`, or this process's own when a file runs on its own. */
export const SEED = Number(process.env.DEVTRAIL_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** How many cases a property tries: `full` under test:deep, else a quarter of it (at least 20). */
export function runs(full: number): number {
  return DEEP ? full : Math.min(full, Math.max(20, Math.ceil(full / 4)));
}
