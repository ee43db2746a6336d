import { sql, type Kysely } from 'kysely';

// Issue 35, item 1: a refund that meets gateway outages is retried until a bound, then ends where a
// person sees it. The change keeps until when (set when it starts refunding, from
// POLICY_CHANGE_REFUND_RETRY_SECONDS). A change already REFUNDING has no record of when it started:
// its bound is its last touch, so one the defect left stuck ends at its next outage.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('policy_change').addColumn('refund_retry_until', 'text').execute();
  await sql`update policy_change set refund_retry_until = updated_at where state = 'REFUNDING'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('policy_change').dropColumn('refund_retry_until').execute();
}
