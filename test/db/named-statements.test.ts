import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.js';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '../helpers/database.js';

// The driver's naming and its failure modes against a fake client are unit-tested beside it
// (src/db/postgres-dialect.test.ts); these check what the server does with the names.

interface Scratch {
  t: { id: number; v: string; w?: string | null };
}

const opened: { database: TestDatabase; db: Kysely<Scratch> }[] = [];

/** A fresh schema with table t, reached through one connection (so its prepared statements are visible). */
async function scratch(columns = 'id integer primary key, v text not null'): Promise<Kysely<Scratch>> {
  const database = await createTestDatabase();
  const config = database.database;
  if (config.kind !== 'postgres') throw new Error('PostgreSQL only');
  const db = connectDatabase({ ...config, poolSize: 1 }) as unknown as Kysely<Scratch>;
  opened.push({ database, db });
  await sql`create table t (${sql.raw(columns)})`.execute(db);
  await db.insertInto('t').values({ id: 1, v: 'one' }).execute();
  return db;
}

const prepared = async (db: Kysely<Scratch>) =>
  (
    await sql<{
      statement: string;
      generic_plans: number;
    }>`select statement, generic_plans from pg_prepared_statements`.execute(db)
  ).rows;

afterEach(async () => {
  for (const { database, db } of opened.splice(0)) {
    await db.destroy();
    await database.destroy();
  }
});

describe.skipIf(!POSTGRES_URL)('named prepared statements (postgres)', () => {
  it('prepares a builder query once per connection', async () => {
    const db = await scratch();
    const byId = (id: number) => db.selectFrom('t').select('v').where('id', '=', id).executeTakeFirst();
    for (let i = 0; i < 8; i++) expect(await byId(1)).toEqual({ v: 'one' });
    expect(await byId(2)).toBeUndefined();
    const statements = (await prepared(db)).filter((s) => s.statement.startsWith('select "v" from "t"'));
    expect(statements).toHaveLength(1);
    // Raw SQL (this very query, the DDL above) is never prepared by name.
    expect((await prepared(db)).some((s) => /pg_prepared_statements|create table/.test(s.statement))).toBe(false);
  });

  it('a generic plan made while a table was tiny is made again once the table is analysed', async () => {
    // What generic plans rest on (docs/decisions.md, "Generic plans"): a plan made from a tiny
    // table's statistics may scan it, and is kept while the table grows, until its statistics
    // change (autovacuum analyses a table after 50 rows + 10 % of it changed); the plan made then
    // uses the unique key, the one candidate index of a lookup that names only its key.
    const db = await scratch('id integer primary key, v text not null, w text');
    await sql`create index t_v on t (v, w)`.execute(db);
    const find = (id: number) => db.selectFrom('t').select('id').where('id', '=', id).executeTakeFirst();
    for (let i = 0; i < 8; i++) await find(1);
    const statement = (await prepared(db)).find((s) => s.statement.startsWith('select "id" from "t"'));
    expect(statement?.generic_plans).toBeGreaterThan(0);
    const name = (
      await sql<{
        name: string;
      }>`select name from pg_prepared_statements where statement = ${statement!.statement}`.execute(db)
    ).rows[0]!.name;
    const plan = async () =>
      (await sql<{ 'QUERY PLAN': string }>`explain execute ${sql.id(name)}(19999)`.execute(db)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    await sql`insert into t (id, v, w) select g, 'one', 'x' from generate_series(2, 20000) g`.execute(db);
    expect(await plan()).toMatch(/Seq Scan on t/);
    await sql`analyze t`.execute(db);
    expect(await plan()).toMatch(/Index (Only )?Scan using t_pkey/);
    expect(await find(19999)).toEqual({ id: 19999 });
  });

  it('answers with the new columns after a table changes under a prepared select *', async () => {
    const db = await scratch();
    const all = (on: Kysely<Scratch> = db) =>
      on.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(await all()).toEqual({ id: 1, v: 'one' });
    await sql`alter table t add column w text`.execute(db);
    // Outside a transaction the statement is prepared again under a new name and run once more.
    expect(await all()).toEqual({ id: 1, v: 'one', w: null });

    await sql`alter table t drop column w`.execute(db);
    // Inside one, the error aborts the transaction, as any failed statement does; the next succeeds.
    await expect(db.transaction().execute((tx) => all(tx))).rejects.toMatchObject({ code: '0A000' });
    await expect(db.transaction().execute((tx) => all(tx))).resolves.toEqual({ id: 1, v: 'one' });
  });

  it('keeps schemas apart: the same text in two schemas reads each schema’s own table', async () => {
    const first = await scratch('id integer primary key, v text not null');
    const second = await scratch('v text not null, id integer primary key, w text');
    await second.updateTable('t').set({ w: 'second' }).execute();
    const read = (db: Kysely<Scratch>) => db.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    for (let i = 0; i < 3; i++) {
      expect(await read(first)).toEqual({ id: 1, v: 'one' });
      expect(await read(second)).toEqual({ v: 'one', id: 1, w: 'second' });
    }
  });
});
if (!POSTGRES_URL) console.info('Named statement checks skipped: DATABASE_URL is not set.');
