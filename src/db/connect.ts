import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import pg from 'pg';
import { DEFAULT_DATABASE_LIMITS, type AppConfig } from '../config/config.js';
import type { Database, Db } from './database.js';
import { WalCheckpointer } from './checkpointer.js';
import { SharedDatabasePostgresDialect } from './postgres-dialect.js';
import { DurableSqliteDialect } from './sqlite-dialect.js';
import { SQLITE_BUSY_TIMEOUT_MS } from './sqlite-lock-wait.js';
import { WalSync, walFileFlusher } from './wal-sync.js';

// int8 columns (ids, counters) come back as numbers; every value we store is below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export interface DatabaseOptions {
  /** PostgreSQL only: the schema to work in (tests use one schema each). */
  readonly schema?: string;
  /** SQLite only: wraps the opened connection (the purchase probe times every statement with it). */
  readonly wrapSqlite?: (
    database: SqliteDatabase.Database,
  ) => ConstructorParameters<typeof DurableSqliteDialect>[0]['database'];
}

/** A SQLite file that cannot be created or written where SQLITE_PATH says: the operator must act. */
export class SqliteFileUnusable extends Error {
  constructor(path: string, cause: unknown) {
    const absolute = resolve(path);
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Cannot open the SQLite database at ${absolute} for writing (${reason}). ` +
        `Make ${dirname(absolute)} writable by this user (it needs to create the database and its -wal ` +
        `and -shm files there), or set SQLITE_PATH to a file in a writable folder.`,
      { cause },
    );
    this.name = 'SqliteFileUnusable';
  }
}

/** Creates the folder, opens the file and switches it to WAL, which writes: the first place a read-only folder shows. */
function openSqliteFile(path: string): SqliteDatabase.Database {
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const sqlite = new SqliteDatabase(path);
    sqlite.pragma('journal_mode = WAL');
    return sqlite;
  } catch (error) {
    throw new SqliteFileUnusable(path, error);
  }
}

/** Opens the configured database. SQLite is tuned for one writer with durable commits. */
export function connectDatabase(database: AppConfig['database'], options: DatabaseOptions = {}): Db {
  const limits = database.limits ?? DEFAULT_DATABASE_LIMITS;
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: database.url,
      max: database.poolSize,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      // Every wait is bounded (src/db/faults.ts): getting a connection, a statement on the server,
      // a transaction left idle; the client's own bound for a server that stops answering is the
      // driver's (postgres-dialect.ts). Keep-alive notices a dead idle connection eventually.
      connectionTimeoutMillis: limits.connectTimeoutMs,
      statement_timeout: limits.statementTimeoutMs,
      idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs,
      application_name: limits.applicationName,
      keepAlive: true,
    });
    survivesLostConnections(pool);
    return new Kysely<Database>({
      dialect: new SharedDatabasePostgresDialect({ pool, queryTimeoutMs: limits.statementTimeoutMs + 1000 }),
    });
  }
  const sqlite = openSqliteFile(database.path);
  // WAL lets readers run beside the writer. Every commit is durable before it is acknowledged:
  // SQLite writes without fsync (NORMAL) and WalSync flushes the WAL once per group of commits,
  // off the event loop (docs/decisions.md, "SQLite durability"). An in-memory database has no WAL.
  const inMemory = database.path === ':memory:';
  sqlite.pragma(inMemory ? 'synchronous = FULL' : 'synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // SQLite's busy handler would wait for another process's lock inside the call, stopping the
  // event loop: the lock is waited for on a timer instead, up to DB_BUSY_TIMEOUT_MS (sqlite-lock-wait.ts).
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // A unit of a write batch runs in a savepoint, whose journal SQLite would spill to a temp file
  // past 64 KiB (src/db/write-batch.ts); kept in memory it costs no system calls.
  sqlite.pragma('temp_store = MEMORY');
  const walFile = inMemory ? undefined : walFileFlusher(database.path);
  const walSync =
    walFile &&
    new WalSync(
      () => walFile.flush(),
      () => walFile.close(),
    );
  const wrapped = options.wrapSqlite ? options.wrapSqlite(sqlite) : sqlite;
  return new Kysely<Database>({
    dialect: new DurableSqliteDialect(
      { database: wrapped },
      {
        ...(walSync ? { walSync } : {}),
        ...(inMemory ? {} : { checkpointer: checkpointerFor(sqlite, database.path) }),
        lockWaitMs: limits.busyTimeoutMs,
      },
    ),
  });
}

/**
 * A connection the server ends (pg_terminate_backend, a restart, a cut network) emits 'error' on
 * its client, and an idle one on the pool too; unheard, either event kills the process. The pool
 * already drops an idle client that failed; a checked-out one fails its query, which the driver
 * answers by discarding it (postgres-dialect.ts). The loss surfaces as that query's error, which
 * the error handler logs and answers with 503, so the events themselves need no more than a listener.
 */
function survivesLostConnections(pool: pg.Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
}

/**
 * Checkpoints move to a worker thread: run by the commit that crossed the threshold they cost the
 * event loop page copies and two fsyncs (docs/decisions.md, "SQLite checkpoints off the event
 * loop"). Should the worker die, the connection checkpoints itself again.
 */
function checkpointerFor(sqlite: SqliteDatabase.Database, path: string): WalCheckpointer {
  sqlite.pragma('wal_autocheckpoint = 0');
  return new WalCheckpointer(path, {
    onFailure: () => {
      if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
    },
  });
}
