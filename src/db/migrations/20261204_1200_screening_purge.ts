import { sql, type Kysely } from 'kysely';

// Issue 30: a screening's sealed health data is purged a retention after the cover ends
// (screening/purge.ts). `purge_check_at`: when the purge sweep next looks at the screening (indexed,
// so a sweep with nothing due is one index probe); `purged_at`: when its sealed columns were erased.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('screening').addColumn('purge_check_at', 'text').execute();
  await db.schema.alterTable('screening').addColumn('purged_at', 'text').execute();
  await sql`update screening set purge_check_at = created_at`.execute(db);
  await db.schema.createIndex('screening_purge_check_idx').on('screening').column('purge_check_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('screening_purge_check_idx').execute();
  await db.schema.alterTable('screening').dropColumn('purged_at').execute();
  await db.schema.alterTable('screening').dropColumn('purge_check_at').execute();
}
