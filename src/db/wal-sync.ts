import { open } from 'node:fs/promises';

/** A flush to disk failed: what was committed since the last good one may be lost. */
export class DurabilityLost extends Error {
  constructor(cause: unknown) {
    super('The database write-ahead log could not be flushed to disk; restart the process after checking the disk.', { cause });
    this.name = 'DurabilityLost';
  }
}

/**
 * Group commit for SQLite (docs/decisions.md, "SQLite durability"). SQLite commits with
 * synchronous=NORMAL (no fsync inside the commit, so the event loop is never blocked on the
 * disk); before any caller learns that its commit happened, one fsync of the WAL file, run on
 * libuv's thread pool, covers every commit made since the previous flush. Nothing acknowledged
 * can be lost: the same promise as synchronous=FULL at one fsync per group instead of one per
 * commit. After a failed fsync every later call fails too: the kernel may have dropped the
 * pages it could not write, so a later success would prove nothing (PostgreSQL's lesson).
 */
export class WalSync {
  #noted = 0;
  #flushed = 0;
  #running: Promise<void> | undefined;
  #failure: DurabilityLost | undefined;

  constructor(private readonly flushToDisk: () => Promise<void>) {}

  /** A commit just happened (its pages are written, not yet flushed). */
  noteCommit(): void {
    this.#noted += 1;
  }

  /** Whether some commit is not known to be on disk yet. */
  get pending(): boolean {
    return this.#flushed < this.#noted || this.#failure !== undefined;
  }

  /** Resolves once every commit noted so far is on disk; shares flushes with concurrent callers. */
  async durable(): Promise<void> {
    const target = this.#noted;
    while (this.#flushed < target) {
      if (this.#failure) throw this.#failure;
      // A flush already running may have started before our commit: wait for it, then go again.
      this.#running ??= this.#flush();
      await this.#running;
    }
    if (this.#failure) throw this.#failure;
  }

  async #flush(): Promise<void> {
    const covered = this.#noted;
    try {
      await this.flushToDisk();
      this.#flushed = Math.max(this.#flushed, covered);
    } catch (error) {
      this.#failure ??= new DurabilityLost(error);
    } finally {
      this.#running = undefined;
    }
  }
}

/** fsync of a SQLite database's WAL file (by path: SQLite may recreate it between flushes). */
export function walFileFlusher(databasePath: string): () => Promise<void> {
  const walPath = `${databasePath}-wal`;
  return async () => {
    const file = await open(walPath, 'r');
    try {
      await file.sync();
    } finally {
      await file.close();
    }
  };
}
