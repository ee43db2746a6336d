import type { Kysely } from 'kysely';
import { withIdColumn } from '../columns.js';

// Document resends (issue 34): each partner's request recorded (who asked, when, whether to an
// address other than the traveller's), and the budgets that bound them per policy and per partner.
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('document_resend'))
    .addColumn('policy_number', 'text', (c) => c.notNull())
    .addColumn('partner_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('to_other_address', 'integer', (c) => c.notNull())
    .addColumn('message_key', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('document_resend_policy_idx')
    .on('document_resend')
    .columns(['policy_number', 'requested_at'])
    .execute();
  await db.schema
    .createTable('document_resend_budget')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_resend_budget_pk', ['scope', 'window_start'])
    .execute();
  await db.schema
    .createIndex('document_resend_budget_window_idx')
    .on('document_resend_budget')
    .column('window_start')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_resend_budget').execute();
  await db.schema.dropTable('document_resend').execute();
}
