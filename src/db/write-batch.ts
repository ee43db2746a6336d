import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { sqliteOutsideTransaction, TransactionRolledBack } from './faults.js';
import type { WalSync } from './wal-sync.js';

/** Statements SQLite refuses (or that mean nothing) inside a transaction. */
const OUTSIDE_TRANSACTIONS = /^\s*(pragma|vacuum)\b/i;
/** Batches of other connections in this process: one that writes first commits them (see `join`). */
const openBatches = new Set<WriteBatch>();

/**
 * Group transactions for SQLite (docs/decisions.md, "SQLite write batches"). The units of work
 * that write during one turn of the event loop (Kysely transactions, each in a savepoint of its
 * own, and lone writing statements) share one SQLite transaction, committed when the turn's I/O
 * callbacks have run (`setImmediate`) and no unit is in progress. Pages that every purchase
 * touches (the tables' last leaves, the index pages of increasing keys, the database header)
 * are then written to the WAL once per batch instead of once per unit. No caller learns the
 * result of a unit, nor of a read that could have seen one, before the batch is committed and
 * flushed; a unit rolled back goes back to its savepoint and leaves the others alone; a batch
 * that fails to commit fails every unit in it.
 */
export class WriteBatch {
  #open = false;
  #scheduled = false;
  #inUnit = false;
  #commitAfterUnit = false;
  #settled: Promise<void> | undefined;
  #settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;

  readonly #statements = new Map<string, SqliteStatement>();

  /** `db`: the connection itself, not a wrapper that would tell this batch of its own statements. */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly walSync: WalSync,
  ) {}

  #run(sql: 'begin immediate' | 'commit' | 'rollback'): void {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.db.prepare(sql)));
    statement.run([]);
  }

  /** Whether the batch's transaction is open: this connection holds the file's write lock. */
  get isOpen(): boolean {
    return this.#open;
  }

  /**
   * A unit of work begins: its savepoint is opened, and the batch is not committed until it ends
   * (units hold the connection one at a time; a lone statement is whole once it has run).
   */
  unitBegins(): void {
    this.join();
    this.#inUnit = true;
  }

  unitEnded(): void {
    this.#inUnit = false;
    if (this.#commitAfterUnit) this.#commit();
  }

  /**
   * Before a statement that may write. One that cannot run inside a transaction (a pragma such as
   * `wal_checkpoint`, VACUUM) runs after the open batch is committed; anything else joins the
   * batch, opening one when none is (other connections' batches in this process are committed
   * first: this thread would otherwise wait on their lock while holding their commit up).
   */
  beforeWrite(sql: string): void {
    if (!OUTSIDE_TRANSACTIONS.test(sql)) this.join();
    else if (!this.#inUnit) this.#commit();
  }

  /**
   * Joins the open batch, or opens one, and makes sure it is committed at the end of this turn.
   * Opening one while another process holds the write lock fails with SQLITE_BUSY and leaves no
   * transaction open (the caller waits and tries again: db/sqlite-lock-wait.ts).
   */
  join(): void {
    this.#failIfRolledBack();
    if (!this.#open) {
      for (const other of openBatches) if (other !== this && !other.#inUnit) other.#commit();
      this.#run('begin immediate');
      this.#open = true;
      openBatches.add(this);
      this.#settled = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
      // A failed batch is the concern of its units' callers, who wait on `settled`.
      this.#settled.catch(() => undefined);
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        if (this.#inUnit) this.#commitAfterUnit = true;
        else this.#commit();
      });
    }
  }

  /** Resolves once everything written before now is committed and on disk. */
  async settled(): Promise<void> {
    if (this.#settled) await this.#settled;
    if (this.walSync.pending) await this.walSync.durable();
  }

  /** Commits the open batch now (the database is about to close). */
  close(): void {
    if (!this.#inUnit) this.#commit();
  }

  /**
   * SQLite rolls a transaction back by itself on some errors (a full disk, an I/O error): the
   * batch is then gone with every unit in it, and fails. Checked before anything joins the batch
   * (a savepoint outside a transaction would silently open a new one) and before its commit.
   */
  #failIfRolledBack(): void {
    if (!this.#open || !sqliteOutsideTransaction(this.db)) return;
    const settle = this.#settle;
    this.#open = false;
    this.#settled = undefined;
    this.#settle = undefined;
    openBatches.delete(this);
    settle?.reject(new TransactionRolledBack());
  }

  #commit(): void {
    this.#commitAfterUnit = false;
    this.#failIfRolledBack();
    const settle = this.#settle;
    if (!this.#open || !settle) return;
    this.#open = false;
    this.#settled = undefined;
    this.#settle = undefined;
    openBatches.delete(this);
    try {
      this.#run('commit');
    } catch (error) {
      try {
        this.#run('rollback');
      } catch {
        // SQLite may have rolled back already; either way nothing of the batch stays.
      }
      settle.reject(error);
      return;
    }
    this.walSync.noteCommit();
    this.walSync.durable().then(settle.resolve, settle.reject);
  }
}
