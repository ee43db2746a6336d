import { Migrator, sql, type MigrationResultSet } from 'kysely';
import type { Db } from './database.js';
import { dialectOf } from './dialect.js';
import { migrations } from './migrations/index.js';

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
  return settle(await (await migratorFor(db)).migrateToLatest());
}

/** Reverts the latest applied migration (operators only; never run by the server). */
export async function migrateDown(db: Db): Promise<string[]> {
  return settle(await (await migratorFor(db)).migrateDown());
}
