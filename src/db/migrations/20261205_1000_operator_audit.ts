import { sql, type Kysely } from 'kysely';
import { bigintType, makeAppendOnly, withIdColumn } from '../columns.js';
import { dialectOf } from '../dialect.js';

// The operators' audit trail (issue 31): one row per operator action, append-only. Both engines
// refuse an UPDATE or DELETE of a row by trigger, so not even a bug in the service can rewrite it.
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await withIdColumn(db, db.schema.createTable('operator_action'))
    .addColumn('operator_id', big, (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('reason', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('operator_action_subject')
    .on('operator_action')
    .columns(['subject_type', 'subject_id', 'id'])
    .execute();
  await db.schema
    .createIndex('operator_action_operator')
    .on('operator_action')
    .columns(['operator_id', 'id'])
    .execute();
  await makeAppendOnly(db, 'operator_action');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_action').execute();
  if (dialectOf(db) === 'postgres') await sql`DROP FUNCTION operator_action_append_only()`.execute(db);
}
