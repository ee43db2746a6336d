import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, DIALECT } from '../helpers/database.js';

describe.skipIf(DIALECT !== 'postgres')('introspection beside another schema’s DDL (postgres)', () => {
  it('migrations in one schema succeed while another schema renames a table back and forth', async () => {
    const busy = await createTestDatabase();
    const migrating = await createTestDatabase();
    try {
      await sql`create table churn (id integer primary key, note text)`.execute(busy.db);
      const state = { renaming: true };
      const renames = (async () => {
        let n = 0;
        while (state.renaming) {
          await sql.raw(n++ % 2 === 0 ? 'alter table churn rename to churn_away' : 'alter table churn_away rename to churn').execute(busy.db);
          // DDL as tests and migrations do it: a statement now and then, not a tight loop.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return n;
      })();
      try {
        // The migrator introspects every schema's tables (Kysely) several times per run.
        await migrateToLatest(migrating.db);
        for (let i = 0; i < 60; i++) await migrating.db.introspection.getTables({ withInternalKyselyTables: true });
      } finally {
        state.renaming = false;
      }
      expect(await renames).toBeGreaterThan(10);
    } finally {
      await busy.destroy();
      await migrating.destroy();
    }
  });
});
