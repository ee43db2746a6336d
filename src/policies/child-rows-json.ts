import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../db/dialect.js';

/**
 * `(select <json array of {column: value}> from <table> where <column> = <outer column>)`: the
 * child rows of one row as a JSON array inside the parent's query, so a read is one round trip
 * instead of one per table. Written without a derived table, so each engine finds the rows
 * through the index on `where` (a derived table shows as a scan in SQLite's plan). Row order
 * is not promised: callers sort.
 *
 * PostgreSQL answers `json` already parsed; SQLite answers text (see `jsonRowsOf`). Integers come
 * back as JSON numbers on both (every stored integer is below 2^53), text as strings.
 */
export function jsonRows(
  dialect: DialectName,
  table: string,
  columns: readonly string[],
  where: { column: string; equals: string },
): RawBuilder<unknown> {
  const pairs = sql.join(columns.map((c) => sql`${sql.lit(c)}, ${sql.ref(`c.${c}`)}`));
  const rows =
    dialect === 'postgres'
      ? sql`coalesce(json_agg(json_build_object(${pairs})), '[]'::json)`
      : sql`coalesce(json_group_array(json_object(${pairs})), '[]')`;
  return sql`(select ${rows} from ${sql.table(table)} as c where ${sql.ref(`c.${where.column}`)} = ${sql.ref(where.equals)})`;
}

/** The rows of a `jsonRows` column as the driver answered it. */

export function jsonRowsOf<T>(value: unknown): T[] {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T[];
}
