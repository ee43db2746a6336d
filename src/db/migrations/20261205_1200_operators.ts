import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// Operator accounts and their console sessions (issue 31). An operator's username is unique
// case-insensitively (`username_key`, lower-cased); only an argon2id hash of the password and the
// TOTP secret sealed under KEY_ENCRYPTION_SECRET are kept. A session id is stored only as its SHA-256.
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await withIdColumn(db, db.schema.createTable('operator'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('totp_secret_sealed', 'text')
    .addColumn('last_totp_step', big)
    .addColumn('failed_sign_ins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('sessions_valid_after', 'text')
    .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('operator_session')
    .addColumn('sid_hash', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', big)
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operator_session_operator').on('operator_session').column('operator_id').execute();
  await db.schema.createIndex('operator_session_expiry').on('operator_session').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_session').execute();
  await db.schema.dropTable('operator').execute();
}
