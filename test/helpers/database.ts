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

/**
 * Prefix of the PostgreSQL schemas and databases one test run creates (see test/global-setup.ts).
 * The vitest main process is every worker's parent: a worker names its own with `process.ppid`.
 */
export function runSchemaPrefix(runPid: number): string {
  return `test_${runPid}_`;
}

/** A new name with the run's prefix, for a schema or a database of one test file. */
export function runScopedName(): string {
  return `${runSchemaPrefix(process.ppid)}${randomBytes(6).toString('hex')}`;
}

export interface TestDatabase {
  readonly db: Db;
  /** The configuration that reaches this same database from another connection or process. */
  readonly database: AppConfig['database'];
  /** Environment variables for a child process using this database. */
  readonly env: Record<string, string>;
  destroy(): Promise<void>;
}

export interface TestDatabaseOptions {
  readonly poolSize?: number;
  readonly limits?: DatabaseLimits;
}

/** Runs one statement on the server of DATABASE_URL (schemas and databases are created so). */
export async function onPostgresServer(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * The suite's database at PostgreSQL `url`, in `schema` when given (else the database's own
 * search path). `destroy` drops no schema: test/global-setup.ts drops the run's schemas once the
 * whole run is over, never while another test file may be introspecting the catalogue, which
 * fails if a schema vanishes under it.
 */
export function postgresTestDatabase(
  url: string,
  schema: string | undefined,
  options: TestDatabaseOptions,
): TestDatabase {
  const database = { kind: 'postgres' as const, url, poolSize: options.poolSize ?? 10 };
  const limits = options.limits ? { limits: options.limits } : {};
  const db = connectDatabase({ ...database, ...limits }, schema ? { schema } : {});
  // A child process reaches the same schema through the connection's search_path.
  const reach = new URL(url);
  if (schema) reach.searchParams.set('options', `-c search_path=${schema}`);
  return {
    db,
    database: { ...database, url: reach.toString() },
    env: { DATABASE_URL: reach.toString() },
    async destroy() {
      await db.destroy();
    },
  };
}

/** The suite's SQLite database in the file `name` of a temp folder of its own, which `destroy` removes. */
export function sqliteTestDatabase(
  options: TestDatabaseOptions,
  fill: (path: string) => void = () => undefined,
): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'partner-api-test-'));
  const database = { kind: 'sqlite' as const, path: join(dir, 'test.sqlite') };
  fill(database.path);
  const db = connectDatabase({ ...database, ...(options.limits ? { limits: options.limits } : {}) });
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

/**
 * A clean, empty database of the suite's engine: a temp SQLite file or a fresh PostgreSQL schema;
 * `limits`: the DB_* bounds of its connection (the defaults unless given). A migrated one is
 * quicker from helpers/migrated-database.ts.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  if (POSTGRES_URL) {
    const schema = runScopedName();
    await onPostgresServer(`create schema ${schema}`);
    return postgresTestDatabase(POSTGRES_URL, schema, options);
  }
  return sqliteTestDatabase(options);
}
