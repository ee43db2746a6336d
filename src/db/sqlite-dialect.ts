import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type MigrationLockOptions,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import type { WalCheckpointer } from './checkpointer.js';
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
    private readonly walSync: WalSync | undefined,
    private readonly checkpointer: WalCheckpointer | undefined,
    private readonly batch: WriteBatch | undefined,
  ) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.batch) {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      return;
    }
    this.batch.unitBegins();
    try {
      await connection.executeQuery(CompiledQuery.raw('savepoint unit'));
    } catch (error) {
      this.batch.unitEnded();
      throw error;
    }
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.batch) return super.commitTransaction(connection);
    try {
      await connection.executeQuery(CompiledQuery.raw('release unit'));
    } finally {
      this.batch.unitEnded();
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.batch) return super.rollbackTransaction(connection);
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback to unit'));
      await connection.executeQuery(CompiledQuery.raw('release unit'));
    } finally {
      this.batch.unitEnded();
    }
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
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.walSync, this.checkpointer, this.#batch);
  }

  override createAdapter(): DialectAdapter {
    return new MigratingSqliteAdapter();
  }
}
