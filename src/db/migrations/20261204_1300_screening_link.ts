import type { Kysely } from 'kysely';
import { bigintType } from '../columns.js';

// The hosted screening page's link (issue 30): one random secret per link, stored only as its sha256;
// bound to one quote and traveller; a newer link for the traveller revokes the older (screening/link-repository.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await db.schema
    .createTable('screening_link')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('value_hash', 'text', (c) => c.notNull().unique())
    .addColumn('quote_id', 'text', (c) => c.notNull())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('partner_id', big, (c) => c.notNull())
    .addColumn('traveller_guid', 'text', (c) => c.notNull())
    .addColumn('return_url', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('screening_link_traveller')
    .on('screening_link')
    .columns(['quote_id', 'traveller_guid'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('screening_link').execute();
}
