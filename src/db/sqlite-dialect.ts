import {
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type MigrationLockOptions,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import type { WalCheckpointer } from './checkpointer.js';
import type { Executor } from './database.js';
import { setBounded } from '../kernel/cache/bounded-map.js';
import type { WalSync } from './wal-sync.js';
import { WriteBatch } from './write-batch.js';

type SqliteConfig = ConstructorParameters<typeof SqliteDialect>[0];

/**
 * Every transaction begins IMMEDIATE: it takes the file's write lock up front (waiting up to
 * busy_timeout) instead of upgrading a read snapshot later, which in WAL mode fails at once
 * with SQLITE_BUSY when another process committed in between.
 *
 * With a WalSync (group commit), a caller gets its result only once what it committed is on
 * disk, and a read only once every commit it could have seen is: the connection is handed to
 * the next caller first, so other requests commit while the flush runs and share the next one.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    config: SqliteConfig,
    private readonly units: SqliteUnits,
    private readonly walSync: WalSync | undefined,
    private readonly checkpointer: WalCheckpointer | undefined,
    private readonly batch: WriteBatch | undefined,
  ) {
    super(config);
  }

  override beginTransaction(): Promise<void> {
    this.units.begin();
    return Promise.resolve();
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
    await super.releaseConnection();
    if (!this.batch) return;
    // Handed on first, so the next unit joins the batch; then this caller waits for its fate.
    await this.batch.settled();
  }
}

/** What a statement run on the connection answered: its rows (a statement that reads or returns), or how many rows it changed. */
export interface SqliteOutcome {
  readonly rows: readonly Record<string, unknown>[];
  readonly changes: number;
}

/**
 * Units of work on the one connection, run synchronously: a transaction (Kysely's, or a commit
 * plan's, db/commit-plan.ts) is a unit. With a write batch a unit is a savepoint of the batch's
 * transaction; without one it is a transaction of its own (BEGIN IMMEDIATE).
 *
 * `run` is the commit plans' path: all of a plan's statements run in one turn of the event loop,
 * on the connection Kysely hands out (held meanwhile, so nothing else runs between them), with
 * no promise per statement. Kysely's own way costs two promises, a mutex turn and a result object
 * per statement and a Kysely instance per transaction: a quarter of a purchase's CPU.
 */
export class SqliteUnits {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly batch: WriteBatch | undefined,
  ) {}

  #control(text: string): void {
    this.database.prepare(text).run([]);
  }

  begin(): void {
    if (!this.batch) return this.#control('begin immediate');
    this.batch.unitBegins();
    try {
      this.#control('savepoint unit');
    } catch (error) {
      this.batch.unitEnded();
      throw error;
    }
  }

  commit(): void {
    if (!this.batch) return this.#control('commit');
    try {
      this.#control('release unit');
    } finally {
      this.batch.unitEnded();
    }
  }

  rollback(): void {
    if (!this.batch) return this.#control('rollback');
    try {
      this.#control('rollback to unit');
      this.#control('release unit');
    } finally {
      this.batch.unitEnded();
    }
  }

  /** Runs one statement, as Kysely's SQLite connection would (the statement cache's compiled statement). */
  execute(sqlText: string, parameters: readonly unknown[]): SqliteOutcome {
    const statement = this.database.prepare(sqlText);
    if (statement.reader) return { rows: statement.all(parameters) as Record<string, unknown>[], changes: 0 };
    return { rows: [], changes: Number(statement.run(parameters).changes) };
  }

  /**
   * Runs `work` synchronously: inside `db` when it is a transaction (the unit is the caller's);
   * else on the connection held for it, as a unit of its own when `atomic` (a lone statement is
   * whole by itself). A unit that throws is rolled back.
   */
  async run<T>(db: Executor, work: (units: this) => T, atomic: boolean): Promise<T> {
    if (db.isTransaction) return work(this);
    // The executor's callback settles the promise with the work's answer or what it threw.
    return db
      .connection()
      .execute(() => new Promise<T>((resolve) => resolve(atomic ? this.#atomically(work) : work(this))));
  }

  #atomically<T>(work: (units: this) => T): T {
    this.begin();
    let result: T;
    try {
      result = work(this);
    } catch (error) {
      this.rollback();
      throw error;
    }
    this.commit();
    return result;
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
      if (hit && !hit.busy) {
        if (hit.readonly !== true) beforeWrite?.(sqlText);
        return hit;
      }
      const statement: CachedStatement = db.prepare(sqlText);
      if (statement.readonly !== true) beforeWrite?.(sqlText);
      if (!hit) setBounded(cache, sqlText, statement, size);
      return statement;
    },
  };
}

export class DurableSqliteDialect extends SqliteDialect {
  readonly #config: SqliteConfig;
  readonly #batch: WriteBatch | undefined;
  readonly #units: SqliteUnits;

  /**
   * `walSync`: group commit (src/db/wal-sync.ts) with write batches (src/db/write-batch.ts);
   * without it every commit is as durable as the connection's pragmas make it. `checkpointer`:
   * closed when the database is destroyed.
   */
  constructor(
    config: SqliteConfig,
    private readonly walSync?: WalSync,
    private readonly checkpointer?: WalCheckpointer,
  ) {
    const raw = config.database;
    let batch: WriteBatch | undefined;
    const database =
      typeof raw === 'function'
        ? raw
        : withStatementCache(raw, STATEMENT_CACHE_SIZE, walSync ? (sqlText) => batch?.beforeWrite(sqlText) : undefined);
    if (walSync && typeof raw !== 'function') batch = new WriteBatch(raw, walSync);
    super({ ...config, database });
    this.#config = { ...config, database };
    this.#batch = batch;
    if (typeof database === 'function') throw new Error('DurableSqliteDialect: give it the opened database');
    this.#units = new SqliteUnits(database, batch);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#units, this.walSync, this.checkpointer, this.#batch);
  }

  override createAdapter(): DialectAdapter {
    const adapter = new MigratingSqliteAdapter();
    unitsOfAdapter.set(adapter, this.#units);
    return adapter;
  }
}
