import { describe, expect, it } from 'vitest';
import { DeliveryLag, oldestDueAt } from '../../src/db/outbox/lag.js';
import { enqueue } from '../../src/db/outbox/repository.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { manualClock } from './support.js';

const NOW = '2026-11-27T10:00:00.000Z';
const ago = (seconds: number) => new Date(Date.parse(NOW) - seconds * 1000).toISOString();

describe(`outbox delivery lag (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();

  it('finds the oldest due message of each kind, leaving out held, sent and failed ones', async () => {
    const { db } = database;
    await enqueue(db, { key: 'mail:1', kind: 'mail', payload: {}, at: ago(30) });
    await enqueue(db, { key: 'mail:2', kind: 'mail', payload: {}, at: ago(10) });
    // Created long ago, due only later (held, or a retry's back-off): not late yet.
    await enqueue(db, { key: 'mail:held', kind: 'mail', payload: {}, at: ago(600), dueAt: ago(-60) });
    await enqueue(db, { key: 'hook:sent', kind: 'hook', payload: {}, at: ago(900) });
    await enqueue(db, { key: 'hook:failed', kind: 'hook', payload: {}, at: ago(800) });
    await enqueue(db, { key: 'hook:1', kind: 'hook', payload: {}, at: ago(5) });
    await db.updateTable('outbox_message').set({ state: 'SENT' }).where('message_key', '=', 'hook:sent').execute();
    await db.updateTable('outbox_message').set({ state: 'FAILED' }).where('message_key', '=', 'hook:failed').execute();

    const due = await oldestDueAt(db, ['mail', 'hook', 'none'], NOW);
    expect(due).toEqual(
      new Map([
        ['mail', ago(30)],
        ['hook', ago(5)],
        ['none', undefined],
      ]),
    );
  });

  it('answers seconds per kind, read again only once its answer is older than its bound', async () => {
    const { db } = database;
    const time = manualClock(NOW);
    const lag = new DeliveryLag(db, ['mail2', 'hook2'], time.clock, 5000);
    await enqueue(db, { key: 'mail2:1', kind: 'mail2', payload: {}, at: ago(42) });
    expect(await lag.read()).toEqual(
      new Map([
        ['mail2', 42],
        ['hook2', 0],
      ]),
    );

    // Within the bound: the same answer, the database not asked (concurrent callers share it too).
    await enqueue(db, { key: 'hook2:1', kind: 'hook2', payload: {}, at: ago(20) });
    time.advance(4000);
    const [first, second] = await Promise.all([lag.read(), lag.read()]);
    expect(first).toBe(second);
    expect(first.get('hook2')).toBe(0);

    time.advance(1000);
    expect(await lag.read()).toEqual(
      new Map([
        ['mail2', 47],
        ['hook2', 25],
      ]),
    );
  });
});
