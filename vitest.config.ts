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
    // Each fork runs its files one after another and evaluates the shared modules (Fastify, Kysely,
    // pdf-lib, the app) once, not once per file: the suite takes about a third less time (README,
    // "Tests"). No module keeps test state: every file builds and closes its own app and database,
    // and `setupFiles` still run for each file.
    isolate: false,
    // Bounds for a hung test, not a slow one: TEST_TIME_SCALE (test/helpers/time-scale.ts) scales them.
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
    // Each test file opens its own database (a temp SQLite file or a PostgreSQL schema).
    sequence: { concurrent: false },
  },
});
