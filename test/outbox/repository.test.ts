import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { reusableQuery } from '../../src/db/reusable-query.js';
import {
  OUTBOX_NAMES,
  enqueue,
  enqueueStatement,
  enqueueStatementOf,
  findMessage,
  outboxValues,
  type OutboxValues,
} from '../../src/db/outbox/repository.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';

const AT = '2026-11-27T10:00:00.000Z';

describe(`outbox enqueue (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();

  it('records a message once per key, in the caller’s transaction', async () => {
    const { db } = database;
    const message = { key: 'k:1', kind: 'test', payload: { n: 1 }, at: AT };
    await db.transaction().execute(async (tx) => {
      await enqueue(tx, message);
      await enqueue(tx, { ...message, payload: { n: 2 } });
    });
    await enqueue(db, { ...message, payload: { n: 3 }, at: '2026-11-28T00:00:00.000Z' });
    expect(await findMessage(db, 'k:1')).toEqual({
      id: expect.any(Number) as number,
      key: 'k:1',
      kind: 'test',
      payload: { n: 1 },
      attempts: 0,
      state: 'PENDING',
      createdAt: AT,
    });
    const count = await db
      .selectFrom('outbox_message')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });

  it('is rolled back with the caller’s transaction', async () => {
    const { db } = database;
    await expect(
      db.transaction().execute(async (tx) => {
        await enqueue(tx, { key: 'k:rolled-back', kind: 'test', payload: null, at: AT });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await findMessage(db, 'k:rolled-back')).toBeUndefined();
  });

  it.runIf(DIALECT === 'postgres')('composes as a CTE of one statement, also compiled once', async () => {
    const { db } = database;
    const [row] = await db
      .with('earlier', (qc) => qc.selectFrom('brand').select('id'))
      .with('outbox', (qc) => enqueueStatement(qc, { key: 'k:cte', kind: 'test', payload: [1], at: AT }))
      .selectNoFrom(sql<number>`1`.as('one'))
      .execute();
    expect(row?.one).toBe(1);
    expect((await findMessage(db, 'k:cte'))?.payload).toEqual([1]);

    const statement = reusableQuery(OUTBOX_NAMES, (executor, v: OutboxValues) =>
      executor
        .with('outbox', (qc) => enqueueStatementOf(qc, v).returning('id'))
        .selectFrom('outbox')
        .select('id'),
    );
    for (const key of ['k:r1', 'k:r2', 'k:r1']) {
      await statement(db, outboxValues({ key, kind: 'test', payload: { key }, at: AT }));
    }
    expect((await findMessage(db, 'k:r2'))?.payload).toEqual({ key: 'k:r2' });
    const keys = await db
      .selectFrom('outbox_message')
      .select('message_key')
      .where('message_key', 'like', 'k:r%')
      .execute();
    expect(keys.map((k) => k.message_key).sort()).toEqual(['k:r1', 'k:r2']);
  });
});
