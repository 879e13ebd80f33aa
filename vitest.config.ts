import { defineConfig } from 'vitest/config';

// One run covers unit and integration suites. Files run one at a time: several
// integration suites stop and start shared engines (Kafka, ClickHouse), which
// must never overlap with another suite's traffic.
export default defineConfig({
  test: {
    include: ['libs/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'deploy/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
