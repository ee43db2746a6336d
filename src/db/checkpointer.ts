import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What one `wal_checkpoint` answered: frames in the WAL, frames copied into the database file. */
export interface CheckpointResult {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

export interface CheckpointerOptions {
  /** How often the worker copies new WAL frames into the database file (ms). */
  readonly intervalMs?: number;
  /** WAL frames past which the worker makes the WAL start over (briefly taking the write lock). */
  readonly restartFrames?: number;
  /** The worker stopped for good: the caller takes checkpointing back (auto-checkpoint). */
  readonly onFailure?: (error: unknown) => void;
}

// The worker's code is plain CommonJS (no TypeScript loader exists in a worker under vitest or
// tsx's eval); it loads the same better-sqlite3 the app resolved. PASSIVE copies what it can
// without waiting on anyone. The WAL only starts over when a writer begins while every frame is
// copied, which under steady writes a concurrent PASSIVE never achieves: past `restartFrames`
// a RESTART takes the write lock when free (busy_timeout 0: never waits; retried soon after).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 0');
const run = (mode) => db.pragma('wal_checkpoint(' + mode + ')')[0];
let timer;
const tick = () => {
  let result = run('PASSIVE');
  if (result.log >= workerData.restartFrames) result = run('RESTART');
  const again = result.log >= workerData.restartFrames && result.busy === 1;
  timer = setTimeout(tick, again ? 5 : workerData.intervalMs);
};
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message.type === 'checkpoint') parentPort.postMessage({ type: 'result', id: message.id, result: run(message.mode) });
  if (message.type === 'close') {
    clearTimeout(timer);
    try { run('PASSIVE'); } finally { db.close(); parentPort.close(); }
  }
});
`;

const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Checkpoints a WAL-mode SQLite file from a worker thread with its own connection (docs/decisions.md,
 * "SQLite checkpoints off the event loop"). SQLite's auto-checkpoint runs inside the commit that
 * crosses the threshold, on the event loop: it copies the WAL into the database file and fsyncs
 * both. The serving connection turns it off (`wal_autocheckpoint=0`) and this does it instead.
 * Durability is SQLite's own: a checkpoint fsyncs the WAL before copying and the database file
 * before the WAL may be reused, whichever connection runs it.
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, (result: CheckpointResult) => void>();
  #nextId = 0;
  #exited: Promise<void>;
  #closing = false;

  constructor(databasePath: string, options: CheckpointerOptions = {}) {
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        path: databasePath,
        driver: driverPath,
        intervalMs: options.intervalMs ?? 100,
        restartFrames: options.restartFrames ?? 2000,
      },
    });
    // Never keeps a process alive on its own; close() is the orderly way out.
    this.#worker.unref();
    this.#worker.on('message', (message: { type: 'result'; id: number; result: CheckpointResult }) => {
      this.#waiting.get(message.id)?.(message.result);
      this.#waiting.delete(message.id);
    });
    this.#exited = new Promise((resolve) => {
      this.#worker.once('error', (error) => {
        if (!this.#closing) options.onFailure?.(error);
      });
      this.#worker.once('exit', (code) => {
        if (!this.#closing && code !== 0) options.onFailure?.(new Error(`checkpoint worker exited with code ${code}`));
        resolve();
      });
    });
  }

  /** Runs one checkpoint now (tests, tools); rejects if the worker is gone. */
  checkpoint(mode: 'PASSIVE' | 'RESTART' = 'PASSIVE'): Promise<CheckpointResult> {
    const id = (this.#nextId += 1);
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, resolve);
      this.#worker.postMessage({ type: 'checkpoint', id, mode });
      void this.#exited.then(() => {
        if (this.#waiting.delete(id)) reject(new Error('the checkpoint worker has stopped'));
      });
    });
  }

  /** A last checkpoint, then the worker's connection closes and the thread ends. */
  close(): Promise<void> {
    if (!this.#closing) {
      this.#closing = true;
      // Waiting for it must keep the process alive until it has finished.
      this.#worker.ref();
      this.#worker.postMessage({ type: 'close' });
    }
    return this.#exited;
  }
}
