import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// Sandbox gateway state and partner idempotency keys. Unique constraints make concurrent
// claims from several processes safe on both engines.
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('sandbox_payment'))
    .addColumn('payment_id', 'text', (c) => c.notNull().unique())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('card_token', 'text', (c) => c.notNull())
    .addColumn('amount_minor', bigintType(db), (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('three_ds_status', 'text', (c) => c.notNull())
    .addColumn('decline_reason', 'text')
    .addColumn('captured_minor', bigintType(db), (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_minor', bigintType(db), (c) => c.notNull().defaultTo(0))
    .addColumn('challenge_id', 'text', (c) => c.unique())
    .addColumn('challenge_answer', 'text')
    .addColumn('challenge_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('sandbox_operation'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('outcome_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('idempotency_key'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_content_type', 'text')
    .addColumn('response_body', 'text')
    .addColumn('lock_token', 'text', (c) => c.notNull())
    .addColumn('locked_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('idempotency_key_scope_key_unique', ['scope', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_key_expires_at_idx').on('idempotency_key').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_key').execute();
  await db.schema.dropTable('sandbox_operation').execute();
  await db.schema.dropTable('sandbox_payment').execute();
}
