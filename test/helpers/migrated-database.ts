import { afterAll, beforeAll, inject } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import {
  createTestDatabase,
  onPostgresServer,
  POSTGRES_URL,
  postgresTestDatabase,
  runScopedName,
  sqliteTestDatabase,
  type TestDatabase,
  type TestDatabaseOptions,
} from './database.js';
import { copySqliteTemplate, urlOfDatabase, type MigratedTemplate } from './migrated-template.js';

/**
 * A database of the suite's engine with every migration applied: a copy of the run's migrated
 * template (test/global-setup.ts), a PostgreSQL database of its own or a SQLite file. Without a
 * template (run outside vitest's global set-up), an empty one migrated here.
 */
export async function createMigratedTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  // Undefined when the global set-up did not run (e.g. a single file run with another config).
  const template = inject('migratedTemplate') as MigratedTemplate | undefined;
  if (POSTGRES_URL && template?.postgresDatabase) {
    const name = runScopedName();
    await onPostgresServer(`create database ${name} template ${template.postgresDatabase}`);
    const database = postgresTestDatabase(urlOfDatabase(POSTGRES_URL, name), undefined, options);
    // A database of its own, unlike a schema, is no other file's catalogue: it goes with the file
    // (its drop waits for a checkpoint; at the end of the run they would queue one after another).
    return {
      ...database,
      async destroy() {
        await database.destroy();
        await onPostgresServer(`drop database if exists ${name} with (force)`);
      },
    };
  }
  const sqlitePath = template?.sqlitePath;
  if (!POSTGRES_URL && sqlitePath) return sqliteTestDatabase(options, (path) => copySqliteTemplate(sqlitePath, path));
  const database = await createTestDatabase(options);
  await migrateToLatest(database.db);
  return database;
}

/**
 * A migrated test database for the enclosing describe block: created before its tests, destroyed
 * after them. The returned view reads the live database, so tests use it as `database.db`.
 */
export function useMigratedTestDatabase(): TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createMigratedTestDatabase();
  });
  afterAll(async () => {
    await current?.destroy();
  });
  const live = (): TestDatabase => {
    if (!current) throw new Error('test database not created yet (use it inside a test or hook)');
    return current;
  };
  return {
    get db() {
      return live().db;
    },
    get database() {
      return live().database;
    },
    get env() {
      return live().env;
    },
    destroy: () => live().destroy(),
  };
}
