import { isSqliteBusy } from './faults.js';

/**
 * Waiting for a SQLite file's write lock without stopping the event loop (docs/decisions.md,
 * "SQLite waits for a lock on a timer"). better-sqlite3 is synchronous: SQLite's own busy handler
 * sleeps inside the call, so while another process (a CLI command, a backup, a second server)
 * held the lock, `busy_timeout` stopped every request of the process, reads and /health included.
 * The serving connection therefore runs with `busy_timeout = 0` (`SQLITE_BUSY_TIMEOUT_MS`): an
 * attempt that finds the lock taken fails at once with SQLITE_BUSY, having done nothing, and is
 * tried again after a pause on a timer, until the bound (DB_BUSY_TIMEOUT_MS); past it the
 * SQLITE_BUSY error stands, which `faults.ts` answers with 503 DATABASE_UNAVAILABLE.
 */

/** SQLite's own wait for a lock (`busy_timeout`): none, every wait is a pause on a timer. */
export const SQLITE_BUSY_TIMEOUT_MS = 0;

/** The pause after the first failed attempt; each failure in a row doubles it, up to the longest. */
const FIRST_PAUSE_MS = 1;
const LONGEST_PAUSE_MS = 50;

/**
 * Turns on the one connection, one caller at a time (Kysely's SQLite driver has the same mutex,
 * private): whoever holds the turn may leave the connection inside a transaction across awaits.
 */
export class ConnectionTurns {
  #taken: Promise<void> | undefined;
  #give: (() => void) | undefined;

  async take(): Promise<void> {
    while (this.#taken) await this.#taken;
    this.#taken = new Promise((resolve) => (this.#give = resolve));
  }

  give(): void {
    const give = this.#give;
    this.#taken = undefined;
    this.#give = undefined;
    give?.();
  }
}

/**
 * Runs attempts that may find the write lock taken, for the holder of the connection's turn.
 * While it waits, the turn is given back, so reads (which in WAL mode need no lock) and writes
 * that join a unit already holding the lock go on. The waiters share one schedule: after a
 * failed attempt nobody tries again before the pause is over (one attempt per pause, however
 * many requests wait), and the attempt that takes the lock wakes the others at once.
 */
export class SqliteLockWait {
  readonly turns = new ConnectionTurns();
  #pauseMs = 0;
  #notBefore = 0;
  readonly #sleepers = new Set<() => void>();

  /**
   * `boundMs`: how long an attempt may keep failing before its SQLITE_BUSY stands (DB_BUSY_TIMEOUT_MS).
   * `holdsLock`: whether the connection holds the write lock now (an open transaction), so that
   * an attempt that got it wakes the waiters, who then join its transaction.
   */
  constructor(
    readonly boundMs: number,
    private readonly holdsLock: () => boolean,
  ) {}

  /**
   * Runs `attempt` now; if it fails with SQLITE_BUSY (having done nothing: it began a transaction,
   * or is a statement outside one), runs it again after pauses until the bound. The caller holds
   * the turn, and holds it again when this settles.
   */
  async run<T>(attempt: () => T): Promise<T> {
    try {
      return this.#succeeded(attempt());
    } catch (error) {
      if (!isSqliteBusy(error) || this.boundMs <= 0) throw error;
      this.#failed();
      return await this.#retry(attempt, Date.now() + this.boundMs);
    }
  }

  async #retry<T>(attempt: () => T, deadline: number): Promise<T> {
    for (;;) {
      const now = Date.now();
      if (now < this.#notBefore && now < deadline) {
        await this.#pause(Math.min(this.#notBefore, deadline) - now);
        continue;
      }
      try {
        return this.#succeeded(attempt());
      } catch (error) {
        if (!isSqliteBusy(error) || Date.now() >= deadline) throw error;
        this.#failed();
      }
    }
  }

  #succeeded<T>(result: T): T {
    if (this.#pauseMs > 0 && this.holdsLock()) {
      this.#pauseMs = 0;
      this.#notBefore = 0;
      for (const wake of [...this.#sleepers]) wake();
    }
    return result;
  }

  #failed(): void {
    this.#pauseMs = Math.min(LONGEST_PAUSE_MS, Math.max(FIRST_PAUSE_MS, this.#pauseMs * 2));
    this.#notBefore = Date.now() + this.#pauseMs;
  }

  /** Gives the turn back for `ms` (or until an attempt takes the lock), then takes it again. */
  async #pause(ms: number): Promise<void> {
    this.turns.give();
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#sleepers.add(wake);
    });
    await this.turns.take();
  }
}
