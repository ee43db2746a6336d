/**
 * Whether the database refused a value a statement carried (not the statement, not the
 * connection): PostgreSQL's SQLSTATE class 22 "data exception" (a NUL in text, an invalid JSON
 * escape, a number out of range, a string too long) and SQLite's equivalents. Such a record can
 * never be written as it is: retrying cannot help, so callers undo what it was for instead.
 */
export function isRefusedValue(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  // pg: five-character SQLSTATE; better-sqlite3: SQLITE_* result codes.
  if (/^22[0-9A-Z]{3}$/.test(code)) return true;
  return SQLITE_REFUSED.has(code);
}

const SQLITE_REFUSED = new Set(['SQLITE_TOOBIG', 'SQLITE_MISMATCH', 'SQLITE_RANGE']);

/** A short, value-free name of a failure for reports and logs (never its message: it may quote the value). */
export function failureName(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    const name = error instanceof Error ? error.name : 'Error';
    return typeof code === 'string' ? `${name} ${code}` : name;
  }
  return typeof error;
}

/**
 * Whether the database refused a row of `table` for a unique constraint (a key another commit
 * holds): PostgreSQL's 23505 names the table; SQLite's message names `table.column`.
 */
export function isUniqueViolationOf(error: unknown, table: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, table: violated, message } = error as { code?: unknown; table?: unknown; message?: unknown };
  if (code === '23505') return violated === table;
  const sqlite = code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  return sqlite && typeof message === 'string' && message.includes(`${table}.`);
}
