import type { Kysely } from 'kysely';

// Delivery lag (issue 35, item 3): the oldest due message of each kind, read for /metrics and
// /ready (db/outbox/lag.ts), found by one index seek per kind instead of walking other kinds' rows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('outbox_message_kind_due_idx')
    .on('outbox_message')
    .columns(['state', 'kind', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('outbox_message_kind_due_idx').execute();
}
