import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// A partner's own white-label brand codes (spec §5 note 6): each maps to one of the four brands and
// is accepted by the token endpoint in place of the brand, for that partner only. A code is unique
// across partners (it names one partner's label), stored in lower case.
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('partner_brand_code'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('partner_id', bigintType(db), (c) => c.notNull().references('partner.id'))
    .addColumn('brand_code', 'text', (c) => c.notNull().references('brand.code'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('partner_brand_code_partner_idx')
    .on('partner_brand_code')
    .columns(['partner_id', 'code'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('partner_brand_code').execute();
}
