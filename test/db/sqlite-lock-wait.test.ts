import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql, type SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_LIMITS } from '../../src/config/config.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { Database, Db } from '../../src/db/database.js';
import { isDatabaseFault } from '../../src/db/faults.js';
import { DurableSqliteDialect, sqliteUnitsOf } from '../../src/db/sqlite-dialect.js';
import { SQLITE_BUSY_TIMEOUT_MS } from '../../src/db/sqlite-lock-wait.js';
import { pause } from '../helpers/polling.js';
import { scaled } from '../helpers/time-scale.js';

// SQLite only: the file's write lock, held by another connection (the lock holder stands for
// another process; it needs no event loop to hold or release it).

/** A timer, a read: what must not wait while a write waits for the lock. */
const PROMPT_MS = scaled(300);

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
}

/** Settles to 'pending' if `promise` has not settled yet. */
const stateOf = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => 'settled',
      () => 'settled',
    ),
    pause(0).then(() => 'pending'),
  ]);

interface Opened {
  readonly db: Db;
  /** The connection under the dialect: whether a transaction is open on it. */
  readonly raw: SqliteDatabase.Database;
  /** How many times a BEGIN IMMEDIATE ran (each an attempt at the write lock). */
  readonly begins: () => number;
}

/** Counts the BEGIN IMMEDIATEs run through the connection (the write batch's and the units'). */
function countingBegins(raw: SqliteDatabase.Database, counter: { begins: number }): KyselySqliteDatabase {
  return {
    close: () => raw.close(),
    prepare(text: string) {
      const statement = raw.prepare(text);
      if (!/^begin immediate$/i.test(text)) return statement;
      return {
        reader: statement.reader,
        readonly: statement.readonly,
        all: (parameters: readonly unknown[]) => statement.all(...parameters),
        run: (parameters: readonly unknown[]) => {
          counter.begins += 1;
          return statement.run(...parameters);
        },
        iterate: (parameters: readonly unknown[]) => statement.iterate(...parameters),
      } as unknown as ReturnType<KyselySqliteDatabase['prepare']>;
    },
  };
}

/** As the server opens it (db/connect.ts: WAL, write batches, group commit, checkpointer). */
function openAsServer(path: string, lockWaitMs: number): Opened {
  const counter = { begins: 0 };
  let raw: SqliteDatabase.Database | undefined;
  const db = connectDatabase(
    { kind: 'sqlite', path, limits: { ...DEFAULT_DATABASE_LIMITS, busyTimeoutMs: lockWaitMs } },
    { wrapSqlite: (opened) => countingBegins((raw = opened), counter) },
  );
  if (!raw) throw new Error('connectDatabase did not open the file');
  return { db, raw, begins: () => counter.begins };
}

/** Without write batches: each unit a transaction of its own, each lone write its own commit. */
function openWithoutBatches(path: string, lockWaitMs: number): Opened {
  const counter = { begins: 0 };
  const raw = new SqliteDatabase(path);
  raw.pragma('journal_mode = WAL');
  raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  const db = new Kysely<Database>({
    dialect: new DurableSqliteDialect({ database: countingBegins(raw, counter) }, { lockWaitMs }),
  });
  return { db, raw, begins: () => counter.begins };
}

describe.each([
  ['as the server opens it', openAsServer],
  ['without write batches', openWithoutBatches],
] as const)('SQLite write lock held by another connection, %s', (_name, open) => {
  const dirs: string[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  async function setUp(lockWaitMs: number) {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-lock-'));
    dirs.push(dir);
    const path = join(dir, 'db.sqlite');
    const opened = open(path, lockWaitMs);
    cleanups.push(() => opened.db.destroy());
    await sql`create table item (id integer primary key, label text not null)`.execute(opened.db);
    const holder = new SqliteDatabase(path);
    cleanups.push(() => {
      if (holder.inTransaction) holder.exec('rollback');
      holder.close();
    });
    const labels = async () =>
      (await sql<{ label: string }>`select label from item order by id`.execute(opened.db)).rows.map((r) => r.label);
    const insert = (label: string) => sql`insert into item (label) values (${label})`.execute(opened.db);
    const inTransaction = (label: string) =>
      opened.db.transaction().execute((tx) => sql`insert into item (label) values (${label})`.execute(tx));
    const units = sqliteUnitsOf(opened.db);
    if (!units) throw new Error('not a database of DurableSqliteDialect');
    // A commit plan's path: synchronous statements on the held connection.
    const inPlan = (label: string) =>
      units.run(opened.db, (u) => u.execute('insert into item (label) values (?)', [label]), true);
    return { ...opened, holder, labels, insert, inTransaction, inPlan };
  }

  it('writes wait on a timer, the event loop turning and reads answering, and commit once the lock is free', async () => {
    const t = await setUp(scaled(5000));
    t.holder.exec('begin immediate');
    const writes = [t.insert('lone'), t.inTransaction('unit'), t.inPlan('plan')];
    const waited = await timed(() => pause(scaled(50)));
    expect(waited.ms).toBeLessThan(PROMPT_MS);
    for (const write of writes) expect(await stateOf(write)).toBe('pending');
    // A failed BEGIN IMMEDIATE leaves nothing open: the connection reads outside any transaction.
    expect(t.raw.inTransaction).toBe(false);
    const read = await timed(() => t.labels());
    expect(read.result).toEqual([]);
    expect(read.ms).toBeLessThan(PROMPT_MS);
    for (const write of writes) expect(await stateOf(write)).toBe('pending');

    t.holder.exec('rollback');
    await Promise.all(writes);
    expect((await t.labels()).sort()).toEqual(['lone', 'plan', 'unit']);
  });

  it('past the bound each write fails as the database being unavailable, nothing written or left open; the next works', async () => {
    const bound = scaled(100);
    const t = await setUp(bound);
    t.holder.exec('begin immediate');
    for (const write of [() => t.insert('lone'), () => t.inTransaction('unit'), () => t.inPlan('plan')]) {
      const started = Date.now();
      const failure = await write().then(
        () => undefined,
        (error: unknown) => error,
      );
      const ms = Date.now() - started;
      expect(isDatabaseFault(failure)).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(bound - 5);
      expect(ms).toBeLessThan(bound + PROMPT_MS);
      expect(t.raw.inTransaction).toBe(false);
    }
    t.holder.exec('rollback');
    expect(await t.labels()).toEqual([]);
    await t.insert('after');
    expect(await t.labels()).toEqual(['after']);
  });

  it('many waiting writes share one attempt per pause instead of each polling the lock', async () => {
    const t = await setUp(scaled(5000));
    t.holder.exec('begin immediate');
    const before = t.begins();
    const writers = 20;
    const writes = Array.from({ length: writers }, (_, i) =>
      i % 2 === 0 ? t.inTransaction(`unit ${i}`) : t.inPlan(`plan ${i}`),
    );
    const held = scaled(300);
    await pause(held);
    t.holder.exec('rollback');
    await Promise.all(writes);
    expect(await t.labels()).toHaveLength(writers);
    // Each write tries once as it comes, then one attempt per pause (1 ms doubling to 50 ms) for
    // all of them, then each begins once the lock is free (without batches each unit is its own
    // transaction). Each polling on its own would make about `writers` times `held / 50`.
    expect(t.begins() - before).toBeLessThan(writers * 3 + held / 25);
  });
});
