import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalCheckpointer } from '../../src/db/checkpointer.js';
import { until } from '../helpers/polling.js';

let dir: string;
let path: string;

/** A serving connection as connect.ts opens it: WAL, no fsync in commits, no auto-checkpoint. */
function serving(): SqliteDatabase.Database {
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table if not exists item (id integer primary key, label text not null)');
  return db;
}

const framesInWal = (db: SqliteDatabase.Database) =>
  (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

/**
 * Frames in the WAL and frames of it already copied into the database file, as the WAL index
 * (`-shm`) holds them (sqlite.org/walformat.html: mxFrame at byte 16, nBackfill at 96): reading
 * them checkpoints nothing, unlike `wal_checkpoint` on the serving connection.
 */
function walIndex(): { frames: number; copied: number } {
  const fd = openSync(`${path}-shm`, 'r');
  try {
    const header = Buffer.alloc(100);
    readSync(fd, header, 0, 100, 0);
    const u32 = (at: number) => (endianness() === 'LE' ? header.readUInt32LE(at) : header.readUInt32BE(at));
    return { frames: u32(16), copied: u32(96) };
  } finally {
    closeSync(fd);
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  path = join(dir, 'test.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('WalCheckpointer', () => {
  it('copies the WAL into the database file from its worker, and a RESTART lets the WAL start over', async () => {
    const db = serving();
    const checkpointer = new WalCheckpointer(path, { intervalMs: 60_000 });
    const insert = db.prepare('insert into item (label) values (?)');
    for (let i = 0; i < 300; i++) insert.run(`item ${i}`);
    const result = await checkpointer.checkpoint('RESTART');
    expect(result.log).toBeGreaterThanOrEqual(300);
    expect(result.checkpointed).toBe(result.log);
    insert.run('after the restart');
    // The next commit wrote from the start of the WAL again.
    expect(framesInWal(db)).toBeLessThan(5);
    db.close();
    await checkpointer.close();
  });

  it('keeps the WAL bounded on its own while commits go on (no checkpoint on the serving connection)', async () => {
    const db = serving();
    const checkpointer = new WalCheckpointer(path, { intervalMs: 5, restartFrames: 100 });
    await checkpointer.checkpoint(); // the worker is up (starting a thread takes tens of ms)
    const insert = db.prepare('insert into item (label) values (?)');
    for (let i = 0; i < 3000; i++) {
      insert.run(`item ${i}`);
      if (i % 20 === 0) await pause();
      // The worker's pace is the machine's: on a busy one the writer waits for the worker's turn
      // (every frame copied, so the next commit starts the WAL over) rather than racing it.
      if (walIndex().frames >= 300)
        await until(() => walIndex().copied === walIndex().frames, 'the worker to copy the WAL');
    }
    // 3,000 commits of at least one 4 KB frame each: 12 MB had the WAL never started over.
    const size = statSync(`${path}-wal`).size;
    expect(size, `WAL of ${size} bytes`).toBeLessThan(2 * 1024 * 1024);
    db.close();
    await checkpointer.close();
  });

  it('checkpoints once more on close; the last connection out removes the WAL and the data is all there', async () => {
    const db = serving();
    const checkpointer = new WalCheckpointer(path, { intervalMs: 60_000 });
    const insert = db.prepare('insert into item (label) values (?)');
    for (let i = 0; i < 100; i++) insert.run(`item ${i}`);
    db.close();
    await checkpointer.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = new SqliteDatabase(path, { readonly: true });
    expect(reopened.prepare('select count(*) as n from item').get()).toEqual({ n: 100 });
    reopened.close();
    await expect(checkpointer.checkpoint()).rejects.toThrow(/stopped/);
  });

  it('reports a worker that cannot work, so the connection can checkpoint itself again', async () => {
    const failed = new Promise<unknown>((resolve) => new WalCheckpointer(dir, { onFailure: resolve }));
    expect(await failed).toMatchObject({ code: 'SQLITE_CANTOPEN' });
  });
});
