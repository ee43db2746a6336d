import { sql, type Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

/** States in which a change holds its policy: at most one per policy (the partial unique index below). */
export const HOLDING_STATES = ['STARTED', 'CHALLENGE_PENDING', 'APPLIED', 'REFUNDING', 'ATTENTION'] as const;

// Amendments and cancellations (issue 19): one row per priced preview, carried through its
// confirmation (charge or refund) to the policy transaction it writes. The partial unique index
// lets one change at a time hold a policy, on both engines: two confirmations racing on one
// policy cannot both start.
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await withIdColumn(db, db.schema.createTable('policy_change'))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('policy_header_id', big, (c) => c.notNull().references('policy_header.id'))
    .addColumn('policy_number', 'text', (c) => c.notNull())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('partner_id', big, (c) => c.notNull())
    .addColumn('user_id', big, (c) => c.notNull())
    .addColumn('base_sequence_number', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('amount_minor', big, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('preview_json', 'text', (c) => c.notNull())
    .addColumn('transaction_json', 'text', (c) => c.notNull())
    .addColumn('input_json', 'text')
    .addColumn('card_token', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('payment_result', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('three_ds_status', 'text')
    .addColumn('challenge_json', 'text')
    .addColumn('challenge_expires_at', 'text')
    .addColumn('refunds_json', 'text')
    .addColumn('sequence_number', 'integer')
    .addColumn('idempotency_key_id', big)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('policy_change_policy_idx')
    .on('policy_change')
    .columns(['policy_header_id', 'state'])
    .execute();
  await db.schema.createIndex('policy_change_state_idx').on('policy_change').columns(['state', 'updated_at']).execute();
  await db.schema
    .createIndex('policy_change_one_holder')
    .on('policy_change')
    .column('policy_header_id')
    .unique()
    .where(sql.ref('state'), 'in', [...HOLDING_STATES])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('policy_change').execute();
}
