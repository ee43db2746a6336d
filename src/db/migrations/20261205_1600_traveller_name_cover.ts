import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

// The console's surname search at 1M policies (issue 31, bench/results/issue-31/console-1m.md):
// PostgreSQL scans an expression index index-only only when the raw columns are in it too, so
// without them it fetched every match's heap row (Smith: 88 ms, 'ash…': 150 ms; with them 7 and
// 23 ms). The same index, covering `surname` and `first_name`; SQLite's plan needs no change.
const index = (include: string) =>
  sql.raw(
    `create index policy_traveller_name_idx on policy_traveller (lower(surname) collate "C", lower(first_name) collate "C", policy_header_id)${include}`,
  );

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.schema.dropIndex('policy_traveller_name_idx').execute();
  await sql`${index(' include (surname, first_name)')}`.execute(db);
  // Not analysed here: on a young table fresh statistics say "tiny" and steer the partner flows' plans to
  // sequential scans (test/db/generic-plans.test.ts); autovacuum gathers them as the table grows (an operator
  // at 1M runs `analyze policy_traveller` after the index is built; bench/results/issue-31/console-1m.md).
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.schema.dropIndex('policy_traveller_name_idx').execute();
  await sql`${index('')}`.execute(db);
}
