import { sql, type Kysely } from 'kysely';

/** The states a purchase can still move on from (purchases/model.ts OPEN_STATES), as SQL literals. */
const OPEN_STATES = sql`('STARTED', 'CHALLENGE_PENDING', 'AUTHORISED', 'ISSUED')`;

// Indexes a plan made without the values can only use for what they are for (docs/decisions.md,
// "Generic plans"; test/db/generic-plans.test.ts):
// - purchases by state: a partial index over the open states only. An index on (state, …) tied
//   with the unique public id in the plan of every compare-and-set `public_id = $1 and state in
//   ($2)` and could be chosen for it; a predicate over literals is never implied by a parameter,
//   so only recovery's listing (literal states) can use this one, which is also far smaller.
// - the housekeeping deletes of expired refresh-token families and closed login-failure windows
//   scanned their whole tables.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('purchase_state_idx').execute();
  await db.schema
    .createIndex('purchase_open_idx')
    .on('purchase')
    .column('updated_at')
    .where(sql<boolean>`state in ${OPEN_STATES}`)
    .execute();
  await db.schema
    .createIndex('refresh_token_family_expires_idx')
    .on('refresh_token')
    .column('family_expires_at')
    .execute();
  await db.schema.createIndex('login_failure_window_idx').on('login_failure').column('window_started_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('login_failure_window_idx').execute();
  await db.schema.dropIndex('refresh_token_family_expires_idx').execute();
  await db.schema.dropIndex('purchase_open_idx').execute();
  await db.schema.createIndex('purchase_state_idx').on('purchase').columns(['state', 'updated_at']).execute();
}
