import { statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** A flush to disk failed: what was committed since the last good one may be lost. */
export class DurabilityLost extends Error {
  constructor(cause: unknown) {
    super('The database write-ahead log could not be flushed to disk; restart the process after checking the disk.', {
      cause,
    });
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

  constructor(
    private readonly flushToDisk: () => Promise<void>,
    private readonly release: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Lets go of the disk once the flush under way (if any) is done; after the database is closed. */
  async close(): Promise<void> {
    await this.#running;
    await this.release();
  }

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

/** What flushes a WAL file, and lets go of it once the database is closed. */
export interface WalFlusher {
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * fsync of a SQLite database's WAL file through a handle kept open: one trip to the thread pool
 * per flush, where opening and closing the file each time made three, and each trip waits for a
 * turn of a busy event loop (6.6 ms per flush against 1.1 ms of fsync, measured under purchase
 * load). SQLite keeps one WAL file while a connection is open and rewinds it in place after a
 * checkpoint; should the path name another file (deleted and made anew), the handle follows it.
 */
export function walFileFlusher(databasePath: string): WalFlusher {
  const walPath = `${databasePath}-wal`;
  let held: { readonly handle: FileHandle; readonly ino: number } | undefined;
  const close = async () => {
    const file = held;
    held = undefined;
    await file?.handle.close();
  };
  return {
    async flush() {
      // A stat by path costs a few µs on the event loop; the thread pool trip it saves costs a turn.
      if (held && statSync(walPath, { throwIfNoEntry: false })?.ino !== held.ino) await close();
      if (!held) {
        const handle = await open(walPath, 'r');
        held = { handle, ino: (await handle.stat()).ino };
      }
      await held.handle.sync();
    },
    close,
  };
}
