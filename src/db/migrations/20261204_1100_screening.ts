import type { Kysely } from 'kysely';
import { bigintType } from '../columns.js';

// Medical screening (issue 30): one screening per traveller of a quote. Answers, the authorized
// person and the result's conditions are health or personal data: sealed columns (screening/repository.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await db.schema
    .createTable('screening')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('quote_id', 'text', (c) => c.notNull())
    .addColumn('partner_id', big, (c) => c.notNull())
    .addColumn('traveller_guid', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('catalogue_version', 'text', (c) => c.notNull())
    // sha256 of the trip the screening was made for: the quote no longer matching it → STALE.
    .addColumn('trip_fingerprint', 'text', (c) => c.notNull())
    .addColumn('authorized_person_sealed', 'text')
    .addColumn('answers_sealed', 'text')
    .addColumn('conditions_sealed', 'text')
    .addColumn('reference_number', 'text', (c) => c.unique())
    .addColumn('traveller_outcome', 'text')
    .addColumn('score', 'real')
    .addColumn('medical_premium_minor', big)
    .addColumn('excess_minor', big)
    .addColumn('signposting', 'integer')
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('screening_date', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('screening_traveller_key', ['quote_id', 'traveller_guid'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('screening').execute();
}
