import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';
import { dialectOf } from '../dialect.js';

// Policy documents (issue 20): one row per transaction, kind and language; the unique key lets
// two processes render the same document and keep only the first (insert … on conflict do nothing).
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  const bytes = dialectOf(db) === 'postgres' ? 'bytea' : 'blob';
  await withIdColumn(db, db.schema.createTable('policy_document'))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('policy_header_id', big, (c) => c.notNull().references('policy_header.id'))
    .addColumn('sequence_number', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content', bytes, (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('policy_document_transaction', ['policy_header_id', 'sequence_number', 'kind', 'language'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('policy_document').execute();
}
