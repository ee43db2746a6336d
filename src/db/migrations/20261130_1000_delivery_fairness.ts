import { sql, type Kysely } from 'kysely';

// Fair delivery between partners (Hardening II, item 1): each outbox message names whose share of
// the delivery lanes it uses (webhook deliveries: their partner's), the worker counts a share's
// live leases by `lease_until`; and one table of send budgets (document resends, webhook test
// events, redeliveries) replaces the resends' own, its scopes kept under `resends:`.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('outbox_message')
    .addColumn('share_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('outbox_message_lease_idx').on('outbox_message').column('lease_until').execute();
  await db.schema
    .createTable('send_budget')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('send_budget_pk', ['scope', 'window_start'])
    .execute();
  await db.schema.createIndex('send_budget_window_idx').on('send_budget').column('window_start').execute();
  await sql`insert into send_budget (scope, window_start, used)
    select 'resends:' || scope, window_start, used from document_resend_budget`.execute(db);
  await db.schema.dropTable('document_resend_budget').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
  await sql`insert into document_resend_budget (scope, window_start, used)
    select substr(scope, 9), window_start, used from send_budget where scope like 'resends:%'`.execute(db);
  await db.schema.dropTable('send_budget').execute();
  await db.schema.dropIndex('outbox_message_lease_idx').execute();
  await db.schema.alterTable('outbox_message').dropColumn('share_key').execute();
}
