import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { enqueue, findMessage, redeliver } from '../../src/db/outbox/repository.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { manualClock, testWorker } from './support.js';

describe(`outbox kinds: own retry schedule, work committed with SENT, lanes, redelivery (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();

  it("follows a kind's own retry schedule and fails after its last delay, whatever maxAttempts says", async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'sched:1', kind: 'sched', payload: {}, at: time.iso() });
    const worker = testWorker(
      db,
      time.clock,
      {
        sched: {
          deliver: () => Promise.reject(new Error('down')),
          retryDelaysMs: [5000, 300_000, 1_800_000, 7_200_000],
        },
      },
      { maxAttempts: 2 },
    );
    const dueAfter: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      await worker.runOnce();
      const message = await findMessage(db, 'sched:1');
      expect(message?.attempts).toBe(attempt);
      const row = await db
        .selectFrom('outbox_message')
        .select(['next_attempt_at', 'state'])
        .where('message_key', '=', 'sched:1')
        .executeTakeFirstOrThrow();
      if (attempt < 5) {
        expect(row.state).toBe('PENDING');
        const wait = Date.parse(row.next_attempt_at) - time.clock().getTime();
        dueAfter.push(wait);
        time.advance(wait - 1);
        expect(await worker.runOnce()).toBe(0); // not due a millisecond early
        expect((await findMessage(db, 'sched:1'))?.attempts).toBe(attempt);
        time.advance(1);
      } else expect(row.state).toBe('FAILED');
    }
    expect(dueAfter).toEqual([5000, 300_000, 1_800_000, 7_200_000]);
  });

  it('commits recordSent with the SENT mark, and neither when the lease was lost', async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'rec:1', kind: 'rec', payload: {}, at: time.iso() });
    const recorded: string[] = [];
    const worker = testWorker(db, time.clock, {
      rec: {
        deliver: () => Promise.resolve(),
        recordSent: async (tx, message) => {
          // Written in the same transaction: a row of another table proves it committed together.
          await tx
            .insertInto('event_counter')
            .values({ name: `sent:${message.key}`, last_value: 1 })
            .execute();
          recorded.push(message.key);
        },
      },
    });
    expect(await worker.runOnce()).toBe(1);
    expect(recorded).toEqual(['rec:1']);
    const counter = await db.selectFrom('event_counter').selectAll().where('name', '=', 'sent:rec:1').execute();
    expect(counter).toHaveLength(1);
    expect((await findMessage(db, 'rec:1'))?.state).toBe('SENT');
  });

  it('delivers in several lanes at once: a slow message does not hold up the others', async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'lane:slow', kind: 'lane', payload: { slow: true }, at: time.iso() });
    for (let i = 0; i < 5; i++) await enqueue(db, { key: `lane:${i}`, kind: 'lane', payload: {}, at: time.iso() });
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const done: string[] = [];
    const worker = testWorker(
      db,
      time.clock,
      {
        lane: async (message) => {
          if ((message.payload as { slow?: boolean }).slow) await slow;
          done.push(message.key);
        },
      },
      { concurrency: 3 },
    );
    const pass = worker.runOnce();
    while (done.length < 5) await tick();
    expect(done).not.toContain('lane:slow');
    release();
    expect(await pass).toBe(6);
  });

  it("prepares a sending kind's messages leased together once, and gives back a stopping pass's unstarted leases", async () => {
    const { db } = database;
    const time = manualClock();
    for (let i = 0; i < 4; i++) await enqueue(db, { key: `prep:${i}`, kind: 'prep', payload: { i }, at: time.iso() });
    const prepared: string[][] = [];
    const delivered: string[] = [];
    let worker: ReturnType<typeof testWorker> | undefined;
    let stopping: Promise<void> | undefined;
    worker = testWorker(
      db,
      time.clock,
      {
        prep: {
          prepare: (messages) => {
            prepared.push(messages.map((m) => m.key));
            return Promise.resolve(`batch of ${messages.length}`);
          },
          deliver: (message, batch) => {
            delivered.push(`${message.key} in ${String(batch)}`);
            // The first delivery stops the worker: the three leased with it are not started.
            stopping ??= worker?.stop();
            return Promise.resolve();
          },
        },
      },
      { concurrency: 1 },
    );
    expect(await worker.runOnce()).toBe(1);
    await stopping;
    expect(prepared).toEqual([['prep:0', 'prep:1', 'prep:2', 'prep:3']]);
    expect(delivered).toEqual(['prep:0 in batch of 4']);
    const rest = await db
      .selectFrom('outbox_message')
      .select(['message_key', 'attempts', 'lease_owner'])
      .where('message_key', '!=', 'prep:0')
      .where('kind', '=', 'prep')
      .orderBy('id')
      .execute();
    expect(rest).toEqual(
      ['prep:1', 'prep:2', 'prep:3'].map((key) => ({ message_key: key, attempts: 0, lease_owner: null })),
    );
    worker = testWorker(db, time.clock, { prep: { deliver: () => Promise.resolve() } }, { concurrency: 1 });
    expect(await worker.runOnce()).toBe(3);
  });

  it('redelivers a SENT or FAILED message under the same key from its first attempt', async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'again:1', kind: 'again', payload: { n: 1 }, at: time.iso() });
    let fail = true;
    const seen: string[] = [];
    const worker = testWorker(db, time.clock, {
      again: {
        deliver: (m) => (seen.push(m.key), fail ? Promise.reject(new Error('x')) : Promise.resolve()),
        retryDelaysMs: [],
      },
    });
    await worker.runOnce();
    expect((await findMessage(db, 'again:1'))?.state).toBe('FAILED');
    fail = false;
    await redeliver(db, { key: 'again:1', kind: 'again', payload: { n: 1 }, at: time.iso() });
    expect(await findMessage(db, 'again:1')).toMatchObject({ state: 'PENDING', attempts: 0 });
    expect(await worker.runOnce()).toBe(1);
    await redeliver(db, { key: 'again:1', kind: 'again', payload: { n: 1 }, at: time.iso() });
    expect(await worker.runOnce()).toBe(1);
    expect(seen).toEqual(['again:1', 'again:1', 'again:1']);
    expect((await findMessage(db, 'again:1'))?.state).toBe('SENT');
    // A key never recorded is recorded.
    await redeliver(db, { key: 'again:2', kind: 'again', payload: {}, at: time.iso() });
    expect((await findMessage(db, 'again:2'))?.state).toBe('PENDING');
  });
});
