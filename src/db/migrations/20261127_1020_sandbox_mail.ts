import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';
import { dialectOf } from '../dialect.js';

// The staging sandbox mailbox (issue 20): e-mails kept instead of sent, shown on /sandbox/mail.
// message_id is unique: an e-mail resent after a crash (same Message-ID) is kept once.
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  const bytes = dialectOf(db) === 'postgres' ? 'bytea' : 'blob';
  await withIdColumn(db, db.schema.createTable('sandbox_mail'))
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await withIdColumn(db, db.schema.createTable('sandbox_mail_attachment'))
    .addColumn('sandbox_mail_id', big, (c) => c.notNull().references('sandbox_mail.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('content', bytes, (c) => c.notNull())
    .addUniqueConstraint('sandbox_mail_attachment_position', ['sandbox_mail_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_mail_attachment').execute();
  await db.schema.dropTable('sandbox_mail').execute();
}
