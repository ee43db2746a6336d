import { Unavailable } from '../kernel/errors.js';

/**
 * Which database errors mean "the database cannot serve right now" rather than "this request is
 * wrong" or "our code is wrong". Such a failure answers 503 `DATABASE_UNAVAILABLE` with
 * `Retry-After` (http/error-handler.ts), and the pool drops the connection that saw it
 * (postgres-dialect.ts), so the process recovers by itself when the database is back.
 */

/** Seconds a client should wait before retrying. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

export class DatabaseUnavailable extends Unavailable {
  constructor() {
    super('DATABASE_UNAVAILABLE', 'The database is unavailable; retry shortly.', {
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    });
  }
}

/**
 * PostgreSQL SQLSTATEs: connection exceptions (class 08), operator intervention (57P01
 * admin_shutdown from pg_terminate_backend, 57P02 crash_shutdown, 57P03 cannot_connect_now,
 * 57014 a statement cancelled by statement_timeout), insufficient resources (class 53: too many
 * connections, out of memory or disk), and 25P03, a session ended by the idle-in-transaction timeout.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '25P03']);
const UNAVAILABLE_CLASSES = new Set(['08', '53']);

/** Socket errors of a lost or unreachable server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLite: another connection holds a lock this one needs (past the wait, db/sqlite-lock-wait.ts). */
const SQLITE_BUSY_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_TIMEOUT',
]);

/** Whether `error` is SQLite's answer to a lock another connection holds (better-sqlite3's `code`). */
export function isSqliteBusy(error: unknown): boolean {
  return error instanceof Error && SQLITE_BUSY_CODES.has(String((error as { code?: unknown }).code));
}

/**
 * Storage that refuses writes: SQLite's disk full (`SQLITE_FULL`, also a database at its
 * `max_page_count`), I/O errors (`SQLITE_IOERR_*`), a file become read-only or unopenable; and
 * PostgreSQL's `58030` io_error (its disk full, `53100`, is in class 53 above). The same 503 on
 * both engines, and readiness fails for a while after one (db/storage-health.ts).
 */
const SQLITE_STORAGE_PREFIXES = [
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  'SQLITE_NOMEM',
  'SQLITE_ABORT_ROLLBACK',
];
const STORAGE_STATES = new Set(['53100', '58030']);

/**
 * A transaction SQLite rolled back by itself, as it may on a full disk, an I/O error or no
 * memory: nothing of it was kept. Units of a write batch that had ended inside it fail with this
 * (db/write-batch.ts), never as if committed.
 */
export class TransactionRolledBack extends Error {
  readonly code = 'SQLITE_ABORT_ROLLBACK';
  constructor() {
    super('SQLite rolled the transaction back (disk full or I/O error); nothing of it was kept.');
    this.name = 'TransactionRolledBack';
  }
}

/**
 * Whether SQLite's connection says it is outside any transaction (better-sqlite3's
 * `inTransaction`); a wrapper that does not tell is taken to be inside the one it began.
 */
export function sqliteOutsideTransaction(database: object): boolean {
  return (database as { inTransaction?: boolean }).inTransaction === false;
}

/** Whether `error` itself says the storage refused a write. */
export function isStorageFault(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code } = error as { code?: unknown };
  if (typeof code !== 'string') return false;
  return STORAGE_STATES.has(code) || SQLITE_STORAGE_PREFIXES.some((prefix) => code.startsWith(prefix));
}

/** pg and pg-pool say these in words only (no code). */
const LOST_MESSAGES = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end on the pool',
];

function faultOf(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_STATES.has(code) || (UNAVAILABLE_CLASSES.has(code.slice(0, 2)) && /^[0-9A-Z]{5}$/.test(code)))
      return true;
    if (NETWORK_CODES.has(code) || SQLITE_BUSY_CODES.has(code) || isStorageFault(error)) return true;
  }
  return typeof message === 'string' && LOST_MESSAGES.some((text) => message.includes(text));
}

/** Whether `error` (or an error it wraps, through `cause` or an AggregateError) is the database being away. */
export function isDatabaseFault(error: unknown): boolean {
  return someInChain(error, faultOf);
}

/** Whether `error` (or an error it wraps) is storage refusing a write (see isStorageFault). */
export function holdsStorageFault(error: unknown): boolean {
  return someInChain(error, isStorageFault);
}

function someInChain(error: unknown, test: (error: unknown) => boolean): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    if (seen.has(current) || seen.size > 16) continue;
    seen.add(current);
    if (test(current)) return true;
    if (current instanceof AggregateError) queue.push(...(current.errors as unknown[]));
    if (current instanceof Error && current.cause !== undefined) queue.push(current.cause);
  }
  return false;
}

/** The typed error a database fault answers with, or undefined when `error` is something else. */
export function databaseFault(error: unknown): DatabaseUnavailable | undefined {
  return isDatabaseFault(error) ? new DatabaseUnavailable() : undefined;
}
