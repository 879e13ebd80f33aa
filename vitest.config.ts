import { defineConfig } from 'vitest/config';
import { FinalChecksLast } from './test/support/final-checks-last.ts';
import { LANES } from './test/lanes.ts';

// The lanes (test/lanes.ts, docs/testing.md): unit, in-process, the namespaced stack suites and
// the ClickHouse floor run side by side in the run's workers (group 0); then the serial tail runs
// in one worker, one file after another (group 1), with test/final last. `make test` sets the
// number of workers (DEVTRAIL_TEST_WORKERS); vitest's default is one fewer than the cores.
const floorUrl = process.env.CLICKHOUSE_FLOOR_URL;
const PARALLEL = 0;
const SERIAL = 1;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // expect.poll waits for a page or a pipeline to catch up; 1 s (vitest's default) is too
    // short on a loaded 2-core machine. A poll that passes returns at once, so this costs
    // time only when a test fails.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // Property tests: a seed per run, printed by `make test`, and the CI or deep count (test/support/property.ts).
    setupFiles: ['test/support/property-setup.ts'],
    reporters: ['default', './test/support/durations-reporter.ts'],
    sequence: { sequencer: FinalChecksLast },
    projects: [
      { extends: true, test: { name: 'unit', ...LANES.unit, testTimeout: 30_000, sequence: { groupOrder: PARALLEL } } },
      // The run's one Chromium, for the browser suites (test/support/browser-server.ts).
      { extends: true, test: { name: 'inproc', ...LANES.inproc, globalSetup: ['test/support/browser-server.ts'], sequence: { groupOrder: PARALLEL } } },
      { extends: true, test: { name: 'stack', ...LANES.stack, sequence: { groupOrder: PARALLEL } } },
      ...(floorUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'floor',
                ...LANES.floor,
                env: { CLICKHOUSE_URL: floorUrl, DEVTRAIL_TEST_CLICKHOUSE_URL: floorUrl },
                sequence: { groupOrder: PARALLEL },
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: 'serial',
          ...LANES.serial,
          // The dead-letter watermarks before any suite runs, for test/final.
          globalSetup: ['test/support/global-setup.ts'],
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: SERIAL },
        },
      },
    ],
  },
});
