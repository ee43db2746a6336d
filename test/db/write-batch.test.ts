import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql, type Generated, type SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { isDatabaseFault } from '../../src/db/faults.js';
import { DurableSqliteDialect } from '../../src/db/sqlite-dialect.js';
import { WalSync } from '../../src/db/wal-sync.js';
import { scaled } from '../helpers/time-scale.js';

// SQLite only: PostgreSQL commits each transaction on its own.
interface Items {
  item: { id: Generated<number>; label: string };
}

describe('SQLite write batches (group transactions)', () => {
  const dirs: string[] = [];
  const opened: Kysely<Items>[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
    dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  /** A batching database whose statements are counted by text, and whose COMMIT can be made to fail. */
  async function open(path?: string) {
    const file = path ?? join(mkdtempSync(join(tmpdir(), 'write-batch-')), 'db.sqlite');
    if (!path) dirs.push(join(file, '..'));
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma(`busy_timeout = ${scaled(2000)}`);
    const counts = new Map<string, number>();
    const failCommit = { next: false };
    const counted: KyselySqliteDatabase = {
      close: () => sqlite.close(),
      prepare(text: string) {
        const statement = sqlite.prepare(text);
        const count = () => counts.set(text, (counts.get(text) ?? 0) + 1);
        return {
          reader: statement.reader,
          readonly: statement.readonly,
          all: (parameters: readonly unknown[]) => (count(), statement.all(...parameters)),
          run: (parameters: readonly unknown[]) => {
            count();
            if (text === 'commit' && failCommit.next) {
              failCommit.next = false;
              throw new Error('disk full (simulated)');
            }
            return statement.run(...parameters);
          },
          iterate: (parameters: readonly unknown[]) => statement.iterate(...parameters),
        } as ReturnType<KyselySqliteDatabase['prepare']>;
      },
    };
    // Tells, as the connection itself does, whether SQLite still has a transaction open.
    Object.defineProperty(counted, 'inTransaction', { get: () => sqlite.inTransaction });
    const db = new Kysely<Items>({
      dialect: new DurableSqliteDialect({ database: counted }, { walSync: new WalSync(() => Promise.resolve()) }),
    });
    opened.push(db);
    await sql`create table if not exists item (id integer primary key, label text not null unique)`.execute(db);
    return { db, file, commits: () => counts.get('commit') ?? 0, failCommit };
  }

  const labels = async (db: Kysely<Items>) =>
    (await db.selectFrom('item').select('label').orderBy('id').execute()).map((r) => r.label);

  it('units of work started in one turn of the event loop share one commit', async () => {
    const { db, commits } = await open();
    const before = commits();
    await Promise.all([
      ...Array.from({ length: 5 }, (_, i) =>
        db
          .insertInto('item')
          .values({ label: `lone ${i}` })
          .execute(),
      ),
      ...Array.from({ length: 5 }, (_, i) =>
        db.transaction().execute((tx) =>
          tx
            .insertInto('item')
            .values({ label: `unit ${i}` })
            .execute(),
        ),
      ),
    ]);
    expect(commits() - before).toBe(1);
    expect(await labels(db)).toHaveLength(10);
  });

  it('a batch SQLite rolled back by itself (disk full) fails every unit in it; none is told committed', async () => {
    const { db } = await open();
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(db);
    const insert = (label: string) =>
      db.transaction().execute((tx) => tx.insertInto('item').values({ label }).execute());
    // One turn: both units in one batch; the second needs pages the database may not have.
    const small = insert('small');
    const big = insert('x'.repeat(100_000));
    const outcomes = await Promise.allSettled([small, big]);
    // Each a database fault (503 to a client), never a success nor a bare SQLITE_ERROR (500).
    expect(outcomes.map((o) => o.status === 'rejected' && isDatabaseFault(o.reason))).toEqual([true, true]);
    expect(outcomes[0]).toMatchObject({ reason: { code: 'SQLITE_ABORT_ROLLBACK' } });
    await sql.raw('pragma max_page_count = 1073741823').execute(db);
    expect(await db.selectFrom('item').select('label').execute()).toEqual([]);
    await insert('after');
    expect(await db.selectFrom('item').select('label').execute()).toEqual([{ label: 'after' }]);
  });

  it('a unit that fails is rolled back alone; the others of its batch commit', async () => {
    const { db } = await open();
    const results = await Promise.allSettled([
      db.transaction().execute((tx) => tx.insertInto('item').values({ label: 'kept 1' }).execute()),
      db.transaction().execute(async (tx) => {
        await tx.insertInto('item').values({ label: 'undone' }).execute();
        throw new Error('the unit changes its mind');
      }),
      db.transaction().execute(async (tx) => {
        await tx.insertInto('item').values({ label: 'kept 2' }).execute();
        // A statement that fails inside a unit: SQLite undoes the statement; the unit decides the rest.
        await tx
          .insertInto('item')
          .values({ label: 'kept 1' })
          .execute()
          .catch(() => undefined);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await labels(db)).toEqual(['kept 1', 'kept 2']);
  });

  it('a batch whose commit fails fails every unit in it, and nothing of it stays', async () => {
    const { db, failCommit } = await open();
    await db.insertInto('item').values({ label: 'before' }).execute();
    failCommit.next = true;
    const results = await Promise.allSettled([
      db.insertInto('item').values({ label: 'lost 1' }).execute(),
      db.transaction().execute((tx) => tx.insertInto('item').values({ label: 'lost 2' }).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await labels(db)).toEqual(['before']);
    // The next batch works.
    await db.insertInto('item').values({ label: 'after' }).execute();
    expect(await labels(db)).toEqual(['before', 'after']);
  });

  it('runs a checkpoint pragma outside any batch', async () => {
    const { db } = await open();
    const writes = db.insertInto('item').values({ label: 'pending' }).execute();
    // In the same turn: the open batch is committed first (a checkpoint inside a transaction fails).
    const checkpoint = sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    await Promise.all([writes, checkpoint]);
    expect(await labels(db)).toEqual(['pending']);
  });

  it('a second connection of this process that writes commits the first one’s open batch instead of waiting on its lock', async () => {
    const first = await open();
    const second = await open(first.file);
    const a = first.db.insertInto('item').values({ label: 'first' }).execute();
    const b = second.db.insertInto('item').values({ label: 'second' }).execute();
    await Promise.all([a, b]);
    expect((await labels(first.db)).sort()).toEqual(['first', 'second']);
  });
});
