import type { Kysely } from 'kysely';
import { nowIsoDefault, withIdColumn } from '../columns.js';
import { BRAND_CODES } from '../../kernel/brands.js';

const BRAND_NAMES: Record<(typeof BRAND_CODES)[number], string> = {
  brandau: 'Brand Australia',
  brandnz: 'Brand New Zealand',
  directau: 'Direct Australia',
  nomad: 'Nomad Global',
};

// The four brands are part of the contract (every path carries one), so they are schema data.
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('brand'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(nowIsoDefault(db)))
    .execute();
  await db
    .insertInto('brand' as never)
    .values(BRAND_CODES.map((code) => ({ code, name: BRAND_NAMES[code] })))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('brand').execute();
}
