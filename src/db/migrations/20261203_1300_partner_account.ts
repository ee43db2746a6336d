import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// The on-account gateway's ledger (payments/account/): every call that moved a partner's account
// money, one row each, keyed by the call's idempotency key (a replay finds it and answers it again).
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('partner_account_entry'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('partner_id', 'integer', (c) => c.notNull())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_minor', bigintType(db), (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('partner_account_entry_payment_idx')
    .on('partner_account_entry')
    .columns(['payment_id', 'kind'])
    .execute();
  await db.schema
    .createIndex('partner_account_entry_partner_idx')
    .on('partner_account_entry')
    .columns(['partner_id', 'brand_code', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('partner_account_entry').execute();
}
