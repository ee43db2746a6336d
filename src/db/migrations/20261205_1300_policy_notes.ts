import { sql, type Kysely } from 'kysely';
import { bigintType, makeAppendOnly, withIdColumn } from '../columns.js';
import { dialectOf } from '../dialect.js';

/** The reasons operators choose from when they write a note, in the order the form lists them. */
const REASONS = [
  'Customer contact',
  'Partner request',
  'Payment correction',
  'Referral decision',
  'Complaint',
  'Other',
] as const;
const DEFAULT_REASON = 'Customer contact';

// Policy notes and the operators' policy search (issue 31). Notes are append-only: both engines
// refuse an UPDATE or DELETE of a note by trigger. The search's indexes are on lower-cased
// expressions (both engines index expressions); PostgreSQL's prefix ranges compare bytes
// (COLLATE "C") so `surname >= 'smi' and < 'smj'` is a prefix whatever the database's collation.
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  const postgres = dialectOf(db) === 'postgres';
  await withIdColumn(db, db.schema.createTable('policy_note_reason'))
    .addColumn('reason_text', 'text', (c) => c.notNull().unique())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('display_order', 'integer', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('etl_at', 'text', (c) => c.notNull())
    .execute();
  // At most one default reason (a partial unique index: both engines).
  await db.schema
    .createIndex('policy_note_reason_one_default')
    .on('policy_note_reason')
    .column('is_default')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();
  const loadedAt = new Date().toISOString();
  for (const [i, text] of REASONS.entries()) {
    await sql`insert into policy_note_reason (reason_text, is_active, display_order, is_default, etl_at)
      values (${text}, 1, ${(i + 1) * 10}, ${text === DEFAULT_REASON ? 1 : 0}, ${loadedAt})`.execute(db);
  }

  await withIdColumn(db, db.schema.createTable('policy_note'))
    .addColumn('policy_header_id', big, (c) => c.notNull().references('policy_header.id'))
    .addColumn('policy_detail_id', big, (c) => c.notNull().references('policy_detail.id'))
    .addColumn('note_text', 'text', (c) => c.notNull())
    .addColumn('user_id', big, (c) => c.notNull())
    .addColumn('policy_note_reason_id', big, (c) => c.notNull().references('policy_note_reason.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('policy_note_header_idx').on('policy_note').columns(['policy_header_id', 'id']).execute();
  await makeAppendOnly(db, 'policy_note');

  // The partner's booking reference, searchable: recorded with the policy from now on, copied
  // from the purchase's issue request for the policies sold before.
  await db.schema.alterTable('policy_header').addColumn('booking_reference', 'text').execute();
  const fromRequest = postgres
    ? sql`(select max(p.issue_request_json::json->>'bookingReference') from purchase p where p.quote_id = policy_header.quote_id)`
    : sql`(select max(json_extract(p.issue_request_json, '$.bookingReference')) from purchase p where p.quote_id = policy_header.quote_id)`;
  await sql`update policy_header set booking_reference = ${fromRequest}`.execute(db);
  await db.schema
    .createIndex('policy_header_booking_idx')
    .on('policy_header')
    .columns(['booking_reference', 'id'])
    .execute();
  await db.schema
    .createIndex('policy_header_partner_id_idx')
    .on('policy_header')
    .columns(['partner_id', 'id'])
    .execute();

  const prefixable = (column: string) => (postgres ? `lower(${column}) collate "C"` : `lower(${column})`);
  await sql`create index policy_traveller_name_idx on policy_traveller (${sql.raw(prefixable('surname'))}, ${sql.raw(prefixable('first_name'))}, policy_header_id)`.execute(
    db,
  );
  await sql`create index policy_traveller_email_idx on policy_traveller (lower(email_address), policy_header_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('policy_traveller_email_idx').execute();
  await db.schema.dropIndex('policy_traveller_name_idx').execute();
  await db.schema.dropIndex('policy_header_partner_id_idx').execute();
  await db.schema.dropIndex('policy_header_booking_idx').execute();
  await db.schema.alterTable('policy_header').dropColumn('booking_reference').execute();
  await db.schema.dropTable('policy_note').execute();
  if (dialectOf(db) === 'postgres') await sql`DROP FUNCTION policy_note_append_only()`.execute(db);
  await db.schema.dropTable('policy_note_reason').execute();
}
