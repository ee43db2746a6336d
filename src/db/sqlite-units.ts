import type { SqliteDatabase } from 'kysely';
import type { Executor } from './database.js';
import { sqliteOutsideTransaction } from './faults.js';
import { SqliteLockWait, type ConnectionTurns } from './sqlite-lock-wait.js';
import type { WriteBatch } from './write-batch.js';

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
 *
 * Whatever takes the file's write lock (a unit's begin, a lone statement outside a transaction)
 * goes through `whenLocked`: another process holding the lock makes it wait on a timer, with the
 * connection free for others meanwhile (db/sqlite-lock-wait.ts), never inside SQLite.
 */
export class SqliteUnits {
  readonly #lockWait: SqliteLockWait;
  /** Without a write batch: a transaction `begin` opened is open. */
  #transactionOpen = false;

  /** `lockWaitMs`: how long a write waits for another process's write lock (DB_BUSY_TIMEOUT_MS). */
  constructor(
    private readonly database: SqliteDatabase,
    private readonly batch: WriteBatch | undefined,
    lockWaitMs: number,
  ) {
    this.#lockWait = new SqliteLockWait(lockWaitMs, () => this.inTransaction);
  }

  /** The connection's turns: the driver hands it to one caller at a time. */
  get turns(): ConnectionTurns {
    return this.#lockWait.turns;
  }

  /** Whether the connection is inside a transaction (the write batch's, or a unit's without one): it holds the write lock. */
  get inTransaction(): boolean {
    return this.batch ? this.batch.isOpen : this.#transactionOpen;
  }

  #control(text: string): void {
    this.database.prepare(text).run([]);
  }

  begin(): void {
    if (!this.batch) {
      this.#control('begin immediate');
      this.#transactionOpen = true;
      return;
    }
    this.batch.unitBegins();
    try {
      this.#control('savepoint unit');
    } catch (error) {
      this.batch.unitEnded();
      throw error;
    }
  }

  commit(): void {
    if (!this.batch) return this.#ended('commit');
    try {
      this.#control('release unit');
    } finally {
      this.batch.unitEnded();
    }
  }

  rollback(): void {
    // SQLite may have rolled the whole transaction back already (a full disk): nothing to undo,
    // and the unit's own error is what its caller must see (the batch fails too: write-batch.ts).
    const rolledBack = sqliteOutsideTransaction(this.database);
    if (!this.batch) return rolledBack ? void (this.#transactionOpen = false) : this.#ended('rollback');
    try {
      if (!rolledBack) {
        this.#control('rollback to unit');
        this.#control('release unit');
      }
    } finally {
      this.batch.unitEnded();
    }
  }

  #ended(text: 'commit' | 'rollback'): void {
    try {
      this.#control(text);
    } finally {
      this.#transactionOpen = false;
    }
  }

  /**
   * Runs `attempt` (synchronous) for the holder of the connection's turn. Outside a transaction
   * it may find the write lock taken (its BEGIN or its statement failed with SQLITE_BUSY, nothing
   * done): it is then run again after pauses, up to DB_BUSY_TIMEOUT_MS. Inside one it runs as is.
   */
  whenLocked<T>(attempt: () => T): Promise<T> {
    if (!this.inTransaction) return this.#lockWait.run(attempt);
    // The executor settles the promise with the attempt's answer or what it threw.
    return new Promise<T>((resolve) => resolve(attempt()));
  }

  /** Begins a unit once the write lock is the connection's (Kysely's transactions). */
  beginWhenLocked(): Promise<void> {
    return this.whenLocked(() => this.begin());
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
   * whole by itself), once the write lock is free. A unit that throws is rolled back. `work` may
   * run more than once: again after an attempt that found the lock taken and did nothing.
   */
  async run<T>(db: Executor, work: (units: this) => T, atomic: boolean): Promise<T> {
    if (db.isTransaction) return work(this);
    return db.connection().execute(() => this.whenLocked(() => (atomic ? this.#atomically(work) : work(this))));
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
