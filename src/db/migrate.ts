import { Migrator, sql, type MigrationResultSet } from 'kysely';
import type { Db } from './database.js';
import { dialectOf } from './dialect.js';
import { migrations } from './migrations/index.js';
import { withoutQueryTimeout } from './postgres-dialect.js';

export class MigrationFailed extends Error {
  constructor(
    readonly migrationName: string | undefined,
    cause: unknown,
  ) {
    super(
      `Migration ${migrationName ?? '(unknown)'} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'MigrationFailed';
  }
}

/**
 * PostgreSQL: the bookkeeping tables are named in the connection's own schema. Unqualified,
 * Kysely's existence check would see another schema's tables in the same database and then
 * fail to find them on the search path.
 */
async function migratorFor(db: Db): Promise<Migrator> {
  const provider = { getMigrations: () => Promise.resolve(migrations) };
  if (dialectOf(db) !== 'postgres') return new Migrator({ db, provider });
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return new Migrator({ db, provider, migrationTableSchema: rows[0]?.schema ?? 'public' });
}

function settle({ error, results }: MigrationResultSet): string[] {
  if (error) throw new MigrationFailed(results?.find((r) => r.status === 'Error')?.migrationName, error);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Applies every pending migration; returns the names applied. Safe with several processes
 * starting at once: Kysely takes a lock in the database while it migrates.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return unbounded(db, async (conn) => settle(await (await migratorFor(conn)).migrateToLatest()));
}

/** The migrations this code knows that the database has not applied yet. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const known = await (await migratorFor(db)).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** A database behind the code when `serve` does not migrate it (MIGRATE_ON_START=false). */
export class SchemaBehind extends Error {
  constructor(readonly pending: readonly string[]) {
    super(
      `The database is ${pending.length} migration(s) behind this code: run \`migrate\` first (${pending.join(', ')})`,
    );
    this.name = 'SchemaBehind';
  }
}

/** Migrates, or, when migrations are a deployment step of their own, refuses a database that is behind. */
export async function prepareSchema(db: Db, migrateOnStart: boolean): Promise<void> {
  if (migrateOnStart) {
    await migrateToLatest(db);
    return;
  }
  const pending = await pendingMigrations(db);
  if (pending.length > 0) throw new SchemaBehind(pending);
}

/** Reverts the latest applied migration (operators only; never run by the server). */
export async function migrateDown(db: Db): Promise<string[]> {
  return unbounded(db, async (conn) => settle(await (await migratorFor(conn)).migrateDown()));
}

/**
 * PostgreSQL: migrations run on one connection without the statement timeouts requests have
 * (DB_STATEMENT_TIMEOUT_MS): DDL on a large table, or waiting for another process's migration
 * lock, may rightly take longer. The session's settings are restored before the connection goes
 * back to the pool.
 */
async function unbounded<T>(db: Db, work: (conn: Db) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'postgres') return work(db);
  return withoutQueryTimeout(() =>
    db.connection().execute(async (conn) => {
      await sql`set statement_timeout = 0`.execute(conn);
      try {
        return await work(conn);
      } finally {
        await sql`reset statement_timeout`.execute(conn);
      }
    }),
  );
}
