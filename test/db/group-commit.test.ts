import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DurableSqliteDialect } from '../../src/db/sqlite-dialect.js';
import { WalSync, walFileFlusher } from '../../src/db/wal-sync.js';

// SQLite only: PostgreSQL flushes its own WAL at commit (synchronous_commit=on).
describe('SQLite group commit through Kysely', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  function open(flush: () => Promise<void>) {
    const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    dirs.push(dir);
    const path = join(dir, 'db.sqlite');
    const sqlite = new SqliteDatabase(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    const db = new Kysely<{ item: { id: Generated<number>; label: string } }>({
      dialect: new DurableSqliteDialect({ database: sqlite }, { walSync: new WalSync(flush) }),
    });
    return { db, path };
  }

  function gate() {
    const calls: (() => void)[] = [];
    return {
      calls,
      flush: () => new Promise<void>((resolve) => calls.push(resolve)),
      release: () => calls.splice(0).forEach((resolve) => resolve()),
    };
  }

  it('a write is acknowledged only after a flush; concurrent writes share it; reads wait for what they can see', async () => {
    const disk = gate();
    const { db } = open(disk.flush);
    // DDL commits too: acknowledged only after a flush, like any write.
    const created = sql`create table item (id integer primary key, label text not null)`.execute(db);
    let tableReady = false;
    void created.then(() => (tableReady = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tableReady).toBe(false);
    expect(disk.calls.length).toBe(1);
    disk.release();
    await created;
    const writes = Array.from({ length: 10 }, (_, i) =>
      db
        .insertInto('item')
        .values({ label: `n${i}` })
        .execute(),
    );
    const tx = db
      .transaction()
      .execute((trx) => trx.insertInto('item').values({ label: 'in a transaction' }).execute());
    let acknowledged = 0;
    for (const w of [...writes, tx]) void w.then(() => (acknowledged += 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(acknowledged).toBe(0);
    expect(disk.calls.length).toBe(1); // one flush for the lot so far
    const read = db.selectFrom('item').select('id').execute();
    let readDone = false;
    void read.then(() => (readDone = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readDone).toBe(false); // it could see commits that are not on disk yet
    while (disk.calls.length > 0) {
      disk.release();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all([...writes, tx, read]);
    expect(acknowledged).toBe(11);
    expect(disk.calls).toHaveLength(0);
    expect(await read).toHaveLength(11);
    await db.destroy();
  });

  it('reads with nothing pending never wait for the disk', async () => {
    const disk = gate();
    const { db } = open(disk.flush);
    await db.selectNoFrom(sql<number>`1`.as('one')).execute();
    expect(disk.calls).toHaveLength(0);
    await db.destroy();
  });

  it('the real flusher fsyncs the WAL file the commits went to', async () => {
    let flushes = 0;
    const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    dirs.push(dir);
    const path = join(dir, 'db.sqlite');
    const real = walFileFlusher(path);
    const { db } = (() => {
      const sqlite = new SqliteDatabase(path);
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('synchronous = NORMAL');
      return {
        db: new Kysely<{ item: { id: number } }>({
          dialect: new DurableSqliteDialect(
            { database: sqlite },
            {
              walSync: new WalSync(
                () => real.flush().then(() => void (flushes += 1)),
                () => real.close(),
              ),
            },
          ),
        }),
      };
    })();
    await sql`create table item (id integer primary key)`.execute(db);
    await db.insertInto('item').values({ id: 1 }).execute();
    expect(flushes).toBeGreaterThan(0);
    await db.destroy();
  });

  it('the real flusher keeps one handle on the WAL file, follows the path when the file is replaced, and lets go on close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    dirs.push(dir);
    const wal = join(dir, 'db.sqlite-wal');
    // Which of this process's descriptors name the WAL file (Linux: /proc/self/fd).
    const handles = () =>
      readdirSync('/proc/self/fd').flatMap((fd) => {
        try {
          const target = readlinkSync(`/proc/self/fd/${fd}`);
          return target.startsWith(wal) ? [target] : [];
        } catch {
          return [];
        }
      });
    writeFileSync(wal, 'first');
    const flusher = walFileFlusher(join(dir, 'db.sqlite'));
    for (let i = 0; i < 5; i++) await flusher.flush();
    expect(handles()).toEqual([wal]);
    rmSync(wal);
    writeFileSync(wal, 'second');
    await flusher.flush();
    // The deleted file's handle was closed: none reads "(deleted)".
    expect(handles()).toEqual([wal]);
    await flusher.close();
    expect(handles()).toEqual([]);
  });
});
