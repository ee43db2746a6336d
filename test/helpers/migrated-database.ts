import { afterAll, beforeAll } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/**
 * A migrated test database for the enclosing describe block: created before its tests, destroyed
 * after them. The returned view reads the live database, so tests use it as `database.db`.
 */
export function useMigratedTestDatabase(): TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase();
    await migrateToLatest(current.db);
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
