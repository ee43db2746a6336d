import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/app.js';
import { loadConfig, type AppConfig } from '../../src/config/config.js';
import type { AppContext, Clock } from '../../src/context.js';
import { prepareDatabase } from '../../src/server.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import type { TestDatabase } from './database.js';
import { createMigratedTestDatabase } from './migrated-database.js';
import { checkAnswers } from './contract/taps.js';

export interface TestAppOptions {
  /** Environment overrides, as an operator would set them (e.g. `{ BASE_PATH: '/api' }`). */
  readonly env?: Record<string, string>;
  readonly clock?: Clock;
  /** Hook to add test-only routes or hooks before the app is readied. */
  readonly beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** Options for `buildApp` (e.g. quote ports, a capturing logger); the logger is off otherwise. */
  readonly appOptions?: BuildAppOptions;
  /** PostgreSQL connections of the app's pool (10 unless set; 1 keeps every prepared statement on one connection). */
  readonly poolSize?: number;
  /** Called at every crash point of the money flow (`AppContext.crashHook`): e.g. a connection cut there. */
  readonly crashHook?: (step: string) => void;
  /** Runs on the migrated database before the app is built (e.g. a catalogue import where demo data is refused). */
  readonly prepare?: (context: AppContext) => Promise<void>;
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly context: AppContext;
  readonly database: TestDatabase;
  close(): Promise<void>;
}

/** Builds the real app on a clean, migrated database of the suite's engine; `close` releases both. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // Request limits off unless a test turns them on (test/limits/): most suites send bursts.
  const loaded = loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false', RATE_LIMITS: 'false', ...options.env });
  // The app's connection keeps the DB_* bounds the test's environment sets.
  // A copy of the run's migrated template: the app's own migration finds nothing left to apply.
  const database = await createMigratedTestDatabase({
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    ...(loaded.database.limits ? { limits: loaded.database.limits } : {}),
  });
  const config: AppConfig = { ...loaded, database: database.database };
  const context: AppContext = {
    config,
    db: database.db,
    clock: options.clock ?? (() => new Date()),
    ...(options.crashHook ? { crashHook: options.crashHook } : {}),
  };
  let app: FastifyInstance | undefined;
  try {
    await prepareDatabase(context);
    await options.prepare?.(context);
    app = await buildApp(context, { logger: false, ...options.appOptions });
    await options.beforeReady?.(app);
    await app.ready();
    checkAnswers(app);
  } catch (error) {
    await app?.close();
    await database.destroy();
    throw error;
  }
  const ready = app;
  return {
    app: ready,
    context,
    database,
    async close() {
      await ready.close();
      await database.destroy();
    },
  };
}

/** Registers beforeAll/afterAll for a file-wide test app and returns a getter for it. */
export function useTestApp(options: TestAppOptions = {}): () => TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await buildTestApp(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  return () => {
    if (!current) throw new Error('test app not built yet (use it inside a test)');
    return current;
  };
}

/**
 * A second app on the file's test database with a connection pool of its own: another server
 * process, in process (counters and limits that must hold across processes). Built after the
 * test app, closed before it.
 */
export function useSecondApp(getApp: () => TestApp): () => FastifyInstance {
  let second: FastifyInstance | undefined;
  let secondDb: Db | undefined;
  beforeAll(async () => {
    const t = getApp();
    secondDb = connectDatabase(t.database.database);
    second = await buildApp({ ...t.context, db: secondDb }, { logger: false });
    await second.ready();
    checkAnswers(second);
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.destroy();
  });
  return () => {
    if (!second) throw new Error('second app not built yet (use it inside a test)');
    return second;
  };
}
