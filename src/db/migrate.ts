import { Migrator, type MigrationResultSet } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

export class MigrationFailed extends Error {
  constructor(
    readonly migrationName: string | undefined,
    cause: unknown,
  ) {
    super(`Migration ${migrationName ?? '(unknown)'} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MigrationFailed';
  }
}

function migratorFor(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
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
  return settle(await migratorFor(db).migrateToLatest());
}

/** Reverts the latest applied migration (operators only; never run by the server). */
export async function migrateDown(db: Db): Promise<string[]> {
  return settle(await migratorFor(db).migrateDown());
}
