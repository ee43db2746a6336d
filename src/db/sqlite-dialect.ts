import {
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type MigrationLockOptions,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import { DEFAULT_DATABASE_LIMITS } from '../config/config.js';
import type { WalCheckpointer } from './checkpointer.js';
import type { Executor } from './database.js';
import { setBounded } from '../kernel/cache/bounded-map.js';
import { SqliteUnits } from './sqlite-units.js';
import type { WalSync } from './wal-sync.js';
import { WriteBatch } from './write-batch.js';

type SqliteConfig = ConstructorParameters<typeof SqliteDialect>[0];

/**
 * Every transaction begins IMMEDIATE: it takes the file's write lock up front instead of
 * upgrading a read snapshot later, which in WAL mode fails at once with SQLITE_BUSY when another
 * process committed in between. While another process holds the lock, the begin waits on a timer
 * (SqliteUnits.whenLocked), the connection free for other callers meanwhile.
 *
 * With a WalSync (group commit), a caller gets its result only once what it committed is on
 * disk, and a read only once every commit it could have seen is: the connection is handed to
 * the next caller first, so other requests commit while the flush runs and share the next one.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #connection: LockWaitingConnection;

  constructor(
    config: SqliteConfig & { readonly database: SqliteDatabase },
    private readonly units: SqliteUnits,
    private readonly walSync: WalSync | undefined,
    private readonly checkpointer: WalCheckpointer | undefined,
    private readonly batch: WriteBatch | undefined,
  ) {
    super(config);
    this.#connection = new LockWaitingConnection(config.database, units);
  }

  /** The one connection, to one caller at a time (the turn is given back while it waits for the lock). */
  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.units.turns.take();
    return this.#connection;
  }

  override beginTransaction(): Promise<void> {
    return this.units.beginWhenLocked();
  }

  override commitTransaction(): Promise<void> {
    this.units.commit();
    return Promise.resolve();
  }

  override rollbackTransaction(): Promise<void> {
    this.units.rollback();
    return Promise.resolve();
  }

  override async destroy(): Promise<void> {
    this.batch?.close();
    await this.batch?.settled().catch(() => undefined);
    await super.destroy();
    // After the serving connection: the worker's final checkpoint sees every commit.
    await this.checkpointer?.close();
    await this.walSync?.close();
  }

  override async releaseConnection(): Promise<void> {
    this.units.turns.give();
    if (!this.batch) return;
    // Handed on first, so the next unit joins the batch; then this caller waits for its fate.
    await this.batch.settled();
  }
}

/**
 * Kysely's SQLite connection (private to Kysely), but a statement outside a transaction that finds
 * the write lock taken waits for it on a timer instead of inside SQLite (SqliteUnits.whenLocked).
 */
class LockWaitingConnection implements DatabaseConnection {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly units: SqliteUnits,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.units.whenLocked(() => this.#execute<R>(query));
  }

  #execute<R>({ sql: text, parameters }: CompiledQuery): QueryResult<R> {
    const statement = this.database.prepare(text);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- Kysely's interface: a synchronous statement's rows, nothing to await
  async *streamQuery<R>({ sql: text, parameters, query }: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query)) throw new Error('Sqlite driver only supports streaming of select queries');
    for (const row of this.database.prepare(text).iterate(parameters)) yield { rows: [row as R] };
  }
}

/** The units of each SQLite database this module opened, found from any of its executors (transactions share the adapter). */
const unitsOfAdapter = new WeakMap<DialectAdapter, SqliteUnits>();

/** The synchronous units of a SQLite database opened by DurableSqliteDialect; undefined for any other. */
export function sqliteUnitsOf(db: Executor): SqliteUnits | undefined {
  return unitsOfAdapter.get(db.getExecutor().adapter);
}

/**
 * Kysely's SQLite adapter assumes one process: it runs migrations outside a transaction and
 * takes no lock. SQLite has transactional DDL, so this adapter migrates in a transaction whose
 * first statement is a write, so two processes never apply one migration twice.
 */
class MigratingSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }

  override async acquireMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    await sql`update ${sql.table(options.lockTable)} set is_locked = 1 where id = ${options.lockRowId}`.execute(db);
  }
}

/** How many distinct SQL texts keep their compiled statement (oldest dropped first). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh, and compiling SQL was a visible share of each read's CPU
 * in the benchmarks (docs/performance.md). Statements are reusable, so they are kept by SQL
 * text; one still iterating (a streamed query) is never handed out twice.
 */
export function withStatementCache(
  db: SqliteDatabase,
  size = STATEMENT_CACHE_SIZE,
  beforeWrite?: (sqlText: string) => void,
): SqliteDatabase {
  // better-sqlite3's statements say whether they are still iterating and whether they can write.
  type CachedStatement = SqliteStatement & { readonly busy?: boolean; readonly readonly?: boolean };
  const cache = new Map<string, CachedStatement>();
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare(sqlText: string) {
      const hit = cache.get(sqlText);
      let statement = hit;
      if (!statement || statement.busy) {
        statement = db.prepare(sqlText);
        if (!hit) setBounded(cache, sqlText, statement, size);
      }
      // Cached before the hook runs: a write whose hook finds the lock taken is compiled once, however often it is tried.
      if (statement.readonly !== true) beforeWrite?.(sqlText);
      return statement;
    },
  };
}

/** What a SQLite database is opened with besides its connection. */
export interface DurableSqliteOptions {
  /** Group commit (src/db/wal-sync.ts) with write batches (src/db/write-batch.ts); without it every commit is as durable as the connection's pragmas make it. */
  readonly walSync?: WalSync;
  /** Closed when the database is destroyed. */
  readonly checkpointer?: WalCheckpointer;
  /** How long a write waits for another process's write lock (DB_BUSY_TIMEOUT_MS); the connection runs with busy_timeout 0 (db/connect.ts). */
  readonly lockWaitMs?: number;
}

export class DurableSqliteDialect extends SqliteDialect {
  readonly #config: SqliteConfig & { readonly database: SqliteDatabase };
  readonly #batch: WriteBatch | undefined;
  readonly #units: SqliteUnits;
  readonly #options: DurableSqliteOptions;

  constructor(config: SqliteConfig, options: DurableSqliteOptions = {}) {
    const { walSync } = options;
    const raw = config.database;
    if (typeof raw === 'function') throw new Error('DurableSqliteDialect: give it the opened database');
    let batch: WriteBatch | undefined;
    const database = withStatementCache(
      raw,
      STATEMENT_CACHE_SIZE,
      walSync ? (sqlText) => batch?.beforeWrite(sqlText) : undefined,
    );
    if (walSync) batch = new WriteBatch(raw, walSync);
    super({ ...config, database });
    this.#config = { ...config, database };
    this.#batch = batch;
    this.#options = options;
    this.#units = new SqliteUnits(database, batch, options.lockWaitMs ?? DEFAULT_DATABASE_LIMITS.busyTimeoutMs);
  }

  override createDriver(): Driver {
    const { walSync, checkpointer } = this.#options;
    return new ImmediateSqliteDriver(this.#config, this.#units, walSync, checkpointer, this.#batch);
  }

  override createAdapter(): DialectAdapter {
    const adapter = new MigratingSqliteAdapter();
    unitsOfAdapter.set(adapter, this.#units);
    return adapter;
  }
}
