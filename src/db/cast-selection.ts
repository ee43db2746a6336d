import { sql } from 'kysely';

/**
 * A row's values as the SELECT list of an `insert … select` (PostgreSQL, where a statement
 * reads a data-modifying CTE): a value in a SELECT has no column to take its type from, so each
 * is cast, numbers to bigint and everything else (null included) to text. Only for rows whose
 * nullable columns are all text; integer columns take bigint by assignment.
 */
export function castSelection(row: Readonly<Record<string, unknown>>) {
  return Object.keys(row).map((column) => {
    const value = row[column];
    return (typeof value === 'number' ? sql`cast(${value} as bigint)` : sql`cast(${value ?? null} as text)`).as(column);
  });
}
