import { sql, type Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';
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
  if (dialectOf(db) === 'postgres') {
    await sql`CREATE FUNCTION operator_action_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'operator_action is append-only'; END $$`.execute(db);
    await sql`CREATE TRIGGER operator_action_append_only BEFORE UPDATE OR DELETE ON operator_action
      FOR EACH ROW EXECUTE FUNCTION operator_action_append_only()`.execute(db);
  } else {
    for (const event of ['UPDATE', 'DELETE']) {
      await sql`CREATE TRIGGER ${sql.raw(`operator_action_no_${event.toLowerCase()}`)} BEFORE ${sql.raw(event)} ON operator_action
        BEGIN SELECT RAISE(ABORT, 'operator_action is append-only'); END`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_action').execute();
  if (dialectOf(db) === 'postgres') await sql`DROP FUNCTION operator_action_append_only()`.execute(db);
}
