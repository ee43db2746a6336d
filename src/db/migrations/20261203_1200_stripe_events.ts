import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// Stripe's webhooks (issue 29, part 1): every event received, keyed by Stripe's event id (a
// redelivery is recognised), recorded before anything acts on it and applied after; the disputes
// they report. Purchases and changes are found by the gateway's payment id, refunds' policies by number.
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await withIdColumn(db, db.schema.createTable('stripe_event'))
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('facts_json', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('stripe_created_at', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The sweep's work list: events still to apply, by when they are due.
  await db.schema
    .createIndex('stripe_event_due_idx')
    .on('stripe_event')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await withIdColumn(db, db.schema.createTable('stripe_dispute'))
    .addColumn('dispute_id', 'text', (c) => c.notNull().unique())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('policy_number', 'text')
    .addColumn('amount_minor', big, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stripe_dispute_payment_idx').on('stripe_dispute').column('payment_id').execute();
  await db.schema.createIndex('purchase_payment_idx').on('purchase').column('payment_id').execute();
  await db.schema.createIndex('policy_change_payment_idx').on('policy_change').column('payment_id').execute();
  await db.schema.createIndex('policy_change_number_idx').on('policy_change').column('policy_number').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('policy_change_number_idx').execute();
  await db.schema.dropIndex('policy_change_payment_idx').execute();
  await db.schema.dropIndex('purchase_payment_idx').execute();
  await db.schema.dropTable('stripe_dispute').execute();
  await db.schema.dropTable('stripe_event').execute();
}
