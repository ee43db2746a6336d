import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { AppConfig, DatabaseLimits } from '../../src/config/config.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';

/** The suite runs on PostgreSQL when DATABASE_URL is set, else on SQLite (the default). */
export const POSTGRES_URL = process.env.DATABASE_URL;
export const DIALECT: 'sqlite' | 'postgres' = POSTGRES_URL ? 'postgres' : 'sqlite';

/** Prefix of the PostgreSQL schemas one test run creates (see test/global-setup.ts). */
export function runSchemaPrefix(runPid: number): string {
  return `test_${runPid}_`;
}

export interface TestDatabase {
  readonly db: Db;
  /** The configuration that reaches this same database from another connection or process. */
  readonly database: AppConfig['database'];
  /** Environment variables for a child process using this database. */
  readonly env: Record<string, string>;
  destroy(): Promise<void>;
}

/**
 * A clean, empty database of the suite's engine: a temp SQLite file or a fresh PostgreSQL schema;
 * `limits`: the DB_* bounds of its connection (the defaults unless given).
 */
export async function createTestDatabase(
  options: { poolSize?: number; limits?: DatabaseLimits } = {},
): Promise<TestDatabase> {
  const limits = options.limits ? { limits: options.limits } : {};
  if (POSTGRES_URL) {
    // Named after the test run (the vitest main process is every worker's parent): schemas are
    // dropped together when the run ends (test/global-setup.ts), never while another test file
    // may be introspecting the catalogue, which fails if a schema vanishes under it.
    const schema = `${runSchemaPrefix(process.ppid)}${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const database = { kind: 'postgres' as const, url: POSTGRES_URL, poolSize: options.poolSize ?? 10 };
    const db = connectDatabase({ ...database, ...limits }, { schema });
    // A child process reaches the same schema through the connection's search_path.
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      db,
      database: { ...database, url: url.toString() },
      env: { DATABASE_URL: url.toString() },
      async destroy() {
        await db.destroy();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'partner-api-test-'));
  const database = { kind: 'sqlite' as const, path: join(dir, 'test.sqlite') };
  const db = connectDatabase({ ...database, ...limits });
  return {
    db,
    database,
    env: { SQLITE_PATH: database.path },
    async destroy() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
