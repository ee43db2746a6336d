import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// Referrals (issue 31): one row per referred quote; the queue reads the open ones oldest first.
// The duplicate-policy rule looks travellers up by date of birth.
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await withIdColumn(db, db.schema.createTable('referral'))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('quote_id', 'text', (c) => c.notNull().unique())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('partner_id', big, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason_codes_json', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('referred_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by_operator_id', big)
    .addColumn('loading_hundredths', 'integer')
    .addColumn('extra_excess_minor', big)
    .addColumn('decline_reason', 'text')
    .addColumn('information_requested', 'text')
    .addColumn('pending_approval_json', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('referral_queue').on('referral').columns(['status', 'referred_at']).execute();
  await db.schema.createIndex('policy_traveller_birth').on('policy_traveller').columns(['date_of_birth']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('policy_traveller_birth').execute();
  await db.schema.dropTable('referral').execute();
}
