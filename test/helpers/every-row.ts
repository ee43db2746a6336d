import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { DIALECT } from './database.js';

/**
 * Every row of every table of the app's database (its own schema on PostgreSQL) as text, one line
 * a table, for the canaries that prove a value is stored nowhere. `expected` tables must be among
 * them (the dump is known to reach them); `leaveOut` names tables not to dump.
 */
export async function everyRowText(db: Db, expected: readonly string[], leaveOut: RegExp = /(?!)/): Promise<string> {
  const schema =
    DIALECT === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).filter(
    (table) => (schema === undefined || table.schema === schema) && !leaveOut.test(table.name),
  );
  expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining([...expected]));
  const dumps: string[] = [];
  for (const table of tables) {
    const rows = await sql`select * from ${sql.table(table.name)}`.execute(db);
    dumps.push(`${table.name}: ${JSON.stringify(rows.rows)}`);
  }
  return dumps.join('\n');
}
