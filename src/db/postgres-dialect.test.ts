import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { NamingConnection, retryWhileVanishing, StatementNames, type NamingClient } from './postgres-dialect.js';

const vanished = (code: string) => Object.assign(new Error('relation "s.t" does not exist'), { code });

/** A scan that fails with the codes given, one per call, then answers; `calls` counts them. */
function scanFailing(...codes: string[]) {
  const scan = Object.assign(
    () => {
      const code = codes[scan.calls++];
      return code === undefined ? Promise.resolve('tables') : Promise.reject(vanished(code));
    },
    { calls: 0 },
  );
  return scan;
}

describe('retryWhileVanishing', () => {
  it('scans again while a looked-up table or column vanished, then answers', async () => {
    const scan = scanFailing('42P01', '42703');
    await expect(retryWhileVanishing(scan, 0)).resolves.toBe('tables');
    expect(scan.calls).toBe(3);
  });

  it('throws any other failure at once', async () => {
    const scan = scanFailing('42501');
    await expect(retryWhileVanishing(scan, 0)).rejects.toMatchObject({ code: '42501' });
    expect(scan.calls).toBe(1);
  });

  it('gives up after five attempts', async () => {
    const scan = scanFailing(...Array<string>(9).fill('42P01'));
    await expect(retryWhileVanishing(scan, 0)).rejects.toMatchObject({ code: '42P01' });
    expect(scan.calls).toBe(5);
  });
});

/** Compiles PostgreSQL SQL without a database. */
const compiler = new Kysely<{ t: { id: number; v: string } }>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const byId = (id: number) => compiler.selectFrom('t').selectAll().where('id', '=', id).compile();
const byIds = (ids: number[]) => compiler.selectFrom('t').selectAll().where('id', 'in', ids).compile();

type Sent = { name?: string; text: string; values: unknown[] };

/** A pg client that records what it was sent and fails as told. */
function fakeClient(fail: (sent: Sent, calls: number) => Error | undefined = () => undefined) {
  const sent: Sent[] = [];
  const client: NamingClient = {
    query(config) {
      sent.push(config);
      const error = fail(config, sent.length);
      return error ? Promise.reject(error) : Promise.resolve({ command: 'SELECT', rowCount: 1, rows: [{ id: 1 }] });
    },
    release() {},
  };
  return { client, sent };
}

const pgError = (code: string, routine: string) => Object.assign(new Error(`error ${code}`), { code, routine });
const resultTypeChanged = () => pgError('0A000', 'RevalidateCachedQuery');

describe('StatementNames', () => {
  it('names builder queries by their SQL text, the same text the same name whatever the values', () => {
    const names = new StatementNames();
    const first = names.nameOf(byId(1));
    expect(first).toMatch(/^k\d+$/);
    expect(names.nameOf(byId(2))).toBe(first);
    expect(names.nameOf(compiler.insertInto('t').values({ id: 1, v: 'a' }).compile())).not.toBe(first);
    expect(names.nameOf(compiler.updateTable('t').set({ v: 'b' }).where('id', '=', 1).compile())).toBeDefined();
    expect(names.nameOf(compiler.deleteFrom('t').where('id', '=', 1).compile())).toBeDefined();
    expect(names.size).toBe(4);
  });

  it('leaves raw SQL, DDL and transaction control unnamed', () => {
    const names = new StatementNames();
    const unnamed: CompiledQuery[] = [
      sql`select 1`.compile(compiler),
      compiler.schema.createTable('u').addColumn('id', 'integer').compile(),
      compiler.schema.alterTable('t').addColumn('w', 'text').compile(),
      compiler.schema.createIndex('t_v').on('t').column('v').compile(),
    ];
    for (const query of unnamed) expect(names.nameOf(query)).toBeUndefined();
    expect(names.size).toBe(0);
  });

  it('stops naming new texts at its limit (an IN list of every length is a new text each)', () => {
    const names = new StatementNames(3);
    const named = [1, 2, 3, 4, 5].map((n) => names.nameOf(byIds(Array.from({ length: n }, (_, i) => i))));
    expect(named.slice(0, 3).every((name) => name !== undefined)).toBe(true);
    expect(named.slice(3)).toEqual([undefined, undefined]);
    expect(names.nameOf(byIds([7]))).toBe(named[0]);
    expect(names.size).toBe(3);
  });
});

describe('NamingConnection', () => {
  it('sends builder queries with their name and others without one; answers as Kysely expects', async () => {
    const { client, sent } = fakeClient();
    const connection = new NamingConnection(client, new StatementNames());
    const result = await connection.executeQuery(byId(5));
    await connection.executeQuery(sql`select 1`.compile(compiler));
    expect(sent[0]).toEqual({ name: 'k1', text: byId(5).sql, values: [5] });
    expect(sent[1]).toEqual({ text: 'select 1', values: [] });
    expect(result).toEqual({ rows: [{ id: 1 }] });
  });

  it('outside a transaction, runs a statement the server can no longer use once more under a new name', async () => {
    const { client, sent } = fakeClient((_, calls) => (calls === 1 ? resultTypeChanged() : undefined));
    const connection = new NamingConnection(client, new StatementNames());
    await expect(connection.executeQuery(byId(1))).resolves.toEqual({ rows: [{ id: 1 }] });
    expect(sent.map((s) => s.name)).toEqual(['k1', 'k1_1']);
    await connection.executeQuery(byId(2));
    expect(sent[2]?.name).toBe('k1_1');
  });

  it('inside a transaction, throws it (the transaction is aborted) and prepares anew after', async () => {
    const { client, sent } = fakeClient((_, calls) =>
      calls === 1 ? pgError('26000', 'FetchPreparedStatement') : undefined,
    );
    const connection = new NamingConnection(client, new StatementNames());
    connection.inTransaction = true;
    await expect(connection.executeQuery(byId(1))).rejects.toMatchObject({ code: '26000' });
    connection.inTransaction = false;
    await connection.executeQuery(byId(1));
    expect(sent.map((s) => s.name)).toEqual(['k1', 'k1_1']);
  });

  it('gives up after one more try, and keeps the names for any other error', async () => {
    const always = fakeClient(() => resultTypeChanged());
    await expect(new NamingConnection(always.client, new StatementNames()).executeQuery(byId(1))).rejects.toMatchObject(
      { code: '0A000' },
    );
    expect(always.sent).toHaveLength(2);

    const errors = [pgError('0A000', 'transformLockingClause'), pgError('23505', '_bt_check_unique')];
    const other = fakeClient((_, calls) => errors[calls - 1]);
    const connection = new NamingConnection(other.client, new StatementNames());
    await expect(connection.executeQuery(byId(1))).rejects.toMatchObject({ code: '0A000' });
    await expect(connection.executeQuery(byId(1))).rejects.toMatchObject({ code: '23505' });
    await connection.executeQuery(byId(1));
    expect(other.sent.map((s) => s.name)).toEqual(['k1', 'k1', 'k1']);
  });

  it('never retries an unnamed statement', async () => {
    const { client, sent } = fakeClient(() => resultTypeChanged());
    await expect(
      new NamingConnection(client, new StatementNames()).executeQuery(sql`select * from t`.compile(compiler)),
    ).rejects.toMatchObject({ code: '0A000' });
    expect(sent).toHaveLength(1);
  });
});
