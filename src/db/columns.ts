import type { CreateTableBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';
import { dialectOf } from './dialect.js';

/** Adds an auto-increment 64-bit primary key named `id`, in each engine's own way. */
export function withIdColumn<T extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T>,
): CreateTableBuilder<T, 'id'> {
  return dialectOf(db) === 'postgres'
    ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** 64-bit integer column type: `bigint` in PostgreSQL, `integer` (already 64-bit) in SQLite. */
export function bigintType(db: Kysely<unknown>): 'bigint' | 'integer' {
  return dialectOf(db) === 'postgres' ? 'bigint' : 'integer';
}

/** Column default of "now" as ISO 8601 UTC text, identical in both engines. */
export function nowIsoDefault(db: Kysely<unknown>) {
  return dialectOf(db) === 'postgres'
    ? sql`(to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`
    : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
}

/**
 * Makes a table append-only: both engines refuse any UPDATE or DELETE of its rows by trigger
 * (`<table>_append_only` in PostgreSQL, `<table>_no_update` / `<table>_no_delete` in SQLite).
 */
export async function makeAppendOnly(db: Kysely<unknown>, table: string): Promise<void> {
  const refusal = `${table} is append-only`;
  if (dialectOf(db) === 'postgres') {
    await sql`CREATE FUNCTION ${sql.raw(`${table}_append_only`)}() RETURNS trigger LANGUAGE plpgsql AS ${sql.raw(
      `$$ BEGIN RAISE EXCEPTION '${refusal}'; END $$`,
    )}`.execute(db);
    await sql`CREATE TRIGGER ${sql.raw(`${table}_append_only`)} BEFORE UPDATE OR DELETE ON ${sql.table(table)}
      FOR EACH ROW EXECUTE FUNCTION ${sql.raw(`${table}_append_only`)}()`.execute(db);
    return;
  }
  for (const event of ['UPDATE', 'DELETE']) {
    await sql`CREATE TRIGGER ${sql.raw(`${table}_no_${event.toLowerCase()}`)} BEFORE ${sql.raw(event)} ON ${sql.table(table)}
      BEGIN SELECT RAISE(ABORT, ${sql.lit(refusal)}); END`.execute(db);
  }
}
