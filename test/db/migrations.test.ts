import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BRAND_CODES } from '../../src/kernel/brands.js';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, DIALECT, POSTGRES_URL } from '../helpers/database.js';

describe(`migrations (${DIALECT})`, () => {
  it('apply in order, are idempotent, and revert', async () => {
    const database = await createTestDatabase();
    try {
      const names = Object.keys(migrations);
      expect([...names].sort()).toEqual(names);
      expect(await migrateToLatest(database.db)).toEqual(names);
      expect(await migrateToLatest(database.db)).toEqual([]);
      const brands = await database.db.selectFrom('brand').select('code').orderBy('id').execute();
      expect(brands.map((b) => b.code)).toEqual([...BRAND_CODES]);
      const last = names.at(-1);
      expect(await migrateDown(database.db)).toEqual([last]);
      expect(await migrateToLatest(database.db)).toEqual([last]);
    } finally {
      await database.destroy();
    }
  });
});

describe.skipIf(!POSTGRES_URL)('PostgreSQL-only checks', () => {
  it('reads 64-bit integers as numbers', async () => {
    const database = await createTestDatabase();
    try {
      const { rows } = await sql<{ big: number }>`select 9007199254740991::bigint as big`.execute(database.db);
      expect(rows[0]?.big).toBe(Number.MAX_SAFE_INTEGER);
    } finally {
      await database.destroy();
    }
  });
});
if (!POSTGRES_URL) console.info('PostgreSQL-only checks skipped: DATABASE_URL is not set.');
