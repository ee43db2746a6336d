import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// Purchase attempts. At most one unfinished attempt per quote is guaranteed by the quote's
// conditional claim (is_purchase_initiated), taken in the same transaction as the insert.
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('purchase'))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('quote_id', 'text', (c) => c.notNull())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('partner_id', bigintType(db), (c) => c.notNull())
    .addColumn('user_id', bigintType(db), (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('amount_minor', bigintType(db), (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('card_token', 'text', (c) => c.notNull())
    .addColumn('card_source', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('payment_result', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('three_ds_status', 'text')
    .addColumn('challenge_json', 'text')
    .addColumn('challenge_expires_at', 'text')
    .addColumn('issue_request_json', 'text', (c) => c.notNull())
    .addColumn('policy_number', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('purchase_quote_id_idx').on('purchase').column('quote_id').execute();
  await db.schema.createIndex('purchase_state_idx').on('purchase').columns(['state', 'updated_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('purchase').execute();
}
