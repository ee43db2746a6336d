import { defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/time-scale.js';

// The whole suite, in three tiers by where a test lives (README, "Tests"):
// src/**/*.test.ts unit, test/**/*.test.ts integration, test/process/ process-level.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Every answer an integration test receives is checked against the OpenAPI document (test/helpers/contract/).
    setupFiles: ['test/helpers/contract/setup.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Bounds for a hung test, not a slow one: TEST_TIME_SCALE (test/helpers/time-scale.ts) scales them.
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
    // Each test file opens its own database (a temp SQLite file or a PostgreSQL schema).
    sequence: { concurrent: false },
  },
});
