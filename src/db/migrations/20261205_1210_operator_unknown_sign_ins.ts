import type { Kysely } from 'kysely';

// Failed console sign-ins under usernames no operator has (issue 31): counted and locked out like an
// operator's own, so a lockout does not tell which usernames exist. Keyed by the SHA-256 of the
// lower-cased name: whatever was typed (a password in the wrong field) is never stored.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operator_unknown_sign_in')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('failed_sign_ins', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('operator_unknown_sign_in_updated')
    .on('operator_unknown_sign_in')
    .column('updated_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_unknown_sign_in').execute();
}
