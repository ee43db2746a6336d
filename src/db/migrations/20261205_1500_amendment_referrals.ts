import { sql, type Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';
import { dialectOf } from '../dialect.js';

// Amendment referrals (issue 31): a referral is of a quote or of a policy change, never both.
// `quote_id` becomes nullable (UNIQUE lets several NULLs on both engines); SQLite cannot drop a
// NOT NULL in place, so its table is rebuilt with its data and its queue index.

const COLUMNS =
  'id, public_id, quote_id, brand_code, partner_id, status, reason_codes_json, fingerprint, referred_at, decided_at, decided_by_operator_id, loading_hundredths, extra_excess_minor, decline_reason, information_requested, pending_approval_json, version';

async function createReferral(db: Kysely<unknown>, name: string, ofChanges: boolean): Promise<void> {
  const big = bigintType(db);
  let table = withIdColumn(db, db.schema.createTable(name))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('quote_id', 'text', (c) => (ofChanges ? c.unique() : c.notNull().unique()))
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
    .addColumn('version', 'integer', (c) => c.notNull());
  if (ofChanges)
    table = table
      .addColumn('policy_change_id', 'text', (c) => c.unique())
      .addColumn('policy_number', 'text')
      .addCheckConstraint('referral_one_subject', sql`(quote_id IS NULL) <> (policy_change_id IS NULL)`);
  await table.execute();
}

/** SQLite: a new table, the rows copied, the old one dropped, the new one renamed, the index again. */
async function rebuild(db: Kysely<unknown>, ofChanges: boolean): Promise<void> {
  await createReferral(db, 'referral_rebuilt', ofChanges);
  await sql`INSERT INTO referral_rebuilt (${sql.raw(COLUMNS)}) SELECT ${sql.raw(COLUMNS)} FROM referral`.execute(db);
  await db.schema.dropTable('referral').execute();
  await sql`ALTER TABLE referral_rebuilt RENAME TO referral`.execute(db);
  await db.schema.createIndex('referral_queue').on('referral').columns(['status', 'referred_at']).execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') return rebuild(db, true);
  await sql`ALTER TABLE referral ALTER COLUMN quote_id DROP NOT NULL`.execute(db);
  await db.schema
    .alterTable('referral')
    .addColumn('policy_change_id', 'text', (c) => c.unique())
    .execute();
  await db.schema.alterTable('referral').addColumn('policy_number', 'text').execute();
  await sql`ALTER TABLE referral ADD CONSTRAINT referral_one_subject CHECK ((quote_id IS NULL) <> (policy_change_id IS NULL))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM referral WHERE policy_change_id IS NOT NULL`.execute(db);
  if (dialectOf(db) === 'sqlite') return rebuild(db, false);
  await sql`ALTER TABLE referral DROP CONSTRAINT referral_one_subject`.execute(db);
  await db.schema.alterTable('referral').dropColumn('policy_number').execute();
  await db.schema.alterTable('referral').dropColumn('policy_change_id').execute();
  await sql`ALTER TABLE referral ALTER COLUMN quote_id SET NOT NULL`.execute(db);
}
