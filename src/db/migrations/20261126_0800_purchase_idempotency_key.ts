import type { Kysely } from 'kysely';
import { bigintType } from '../columns.js';

// The Idempotency-Key record a purchase attempt was started under (issue 18, item 4): a retry
// with that key after a crash, or after recovery finished the attempt, gets the attempt's own
// answer instead of a refusal of the quote it bought or holds.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('purchase').addColumn('idempotency_key_id', bigintType(db)).execute();
  await db.schema.createIndex('purchase_idempotency_key_idx').on('purchase').column('idempotency_key_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('purchase_idempotency_key_idx').execute();
  await db.schema.alterTable('purchase').dropColumn('idempotency_key_id').execute();
}
