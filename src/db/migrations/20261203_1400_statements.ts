import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// Partner statements (issue 29, part 3): the payments a partner made against its account, and the
// index a statement month's transactions are found by (committed time; both engines).
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await withIdColumn(db, db.schema.createTable('account_payment_received'))
    .addColumn('partner_id', big, (c) => c.notNull())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    // The partner's (or the bank's) reference: recording it again replays.
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('amount_minor', big, (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    // The day it was received, in the brand's time zone (YYYY-MM-DD): its statement month.
    .addColumn('received_on', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('account_payment_received_reference_key', ['partner_id', 'brand_code', 'reference'])
    .execute();
  await db.schema
    .createIndex('account_payment_received_day_idx')
    .on('account_payment_received')
    .columns(['partner_id', 'brand_code', 'received_on'])
    .execute();
  await db.schema.createIndex('policy_detail_created_idx').on('policy_detail').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('policy_detail_created_idx').execute();
  await db.schema.dropTable('account_payment_received').execute();
}
