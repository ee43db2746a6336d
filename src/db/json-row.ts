import { sql } from 'kysely';

/**
 * `r.a, r.b, …`: the listed columns of a row `r` read from JSON with `json_populate_record[set]`
 * (PostgreSQL), so each value takes its type from the table's own row type. For an `insert …
 * select` that reads a data-modifying CTE, where a bare parameter has no column to take its type
 * from, and whose SQL text must not depend on the values (it is prepared once).
 */
export const jsonRowColumns = (columns: readonly string[]) => sql.join(columns.map((column) => sql.ref(`r.${column}`)));
