import { describe, expect, it } from 'vitest';
import { enqueue, findMessage, type OutboxMessage } from '../../src/db/outbox/repository.js';
import { leaseDue } from '../../src/db/outbox/repository-lease.js';
import { DIALECT } from '../helpers/database.js';
import { until } from '../helpers/polling.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { manualClock, testWorker } from './support.js';

/** A handler whose deliveries of chosen messages wait until the test lets them go. */
function heldDeliveries(held: (message: OutboxMessage) => boolean) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const running = new Set<string>();
  const done: string[] = [];
  let mostRunningHeld = 0;
  return {
    running,
    done,
    mostRunningHeld: () => mostRunningHeld,
    release: () => release(),
    handler: async (message: OutboxMessage) => {
      running.add(message.key);
      if (held(message)) {
        mostRunningHeld = Math.max(mostRunningHeld, [...running].filter((key) => key.startsWith('slow')).length);
        await gate;
      }
      running.delete(message.key);
      done.push(message.key);
    },
  };
}

describe(`outbox shares: fair leases between partners (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();

  it("leases shares in turn, each up to perShare live leases, counting another worker's", async () => {
    const { db } = database;
    const time = manualClock();
    const kinds = [{ kind: 'turns', maxAttempts: 3 }];
    // Share a's messages are all due before share b's first.
    for (let i = 1; i <= 4; i++)
      await enqueue(db, { key: `turns:a${i}`, kind: 'turns', payload: {}, at: time.iso(), share: 'partner:a' });
    time.advance(1000);
    for (let i = 1; i <= 3; i++)
      await enqueue(db, { key: `turns:b${i}`, kind: 'turns', payload: {}, at: time.iso(), share: 'partner:b' });
    const lease = (owner: string) =>
      leaseDue(db, { owner, now: time.iso(), until: '2026-11-27T11:00:00.000Z', kinds, limit: 10, perShare: 2 });
    const first = await lease('worker-1');
    expect(first.map((m) => m.key).sort()).toEqual(['turns:a1', 'turns:a2', 'turns:b1', 'turns:b2']);
    // Another worker: each share has its two leases live, so nothing more of either.
    expect(await lease('worker-2')).toEqual([]);
    // One of a's ends: a's next is free to lease, b is still full.
    await db
      .updateTable('outbox_message')
      .set({ state: 'SENT', lease_owner: null, lease_until: null })
      .where('message_key', '=', 'turns:a1')
      .execute();
    expect((await lease('worker-2')).map((m) => m.key)).toEqual(['turns:a3']);
  });

  it('takes the first due of each share before the second of any, whatever the limit', async () => {
    const { db } = database;
    const time = manualClock();
    const kinds = [{ kind: 'order', maxAttempts: 3 }];
    for (let i = 1; i <= 5; i++)
      await enqueue(db, { key: `order:a${i}`, kind: 'order', payload: {}, at: time.iso(), share: 'partner:a' });
    time.advance(1000);
    await enqueue(db, { key: 'order:b1', kind: 'order', payload: {}, at: time.iso(), share: 'partner:b' });
    const leased = await leaseDue(db, {
      owner: 'worker-1',
      now: time.iso(),
      until: '2026-11-27T11:00:00.000Z',
      kinds,
      limit: 2,
      perShare: 100,
    });
    expect(leased.map((m) => m.key)).toEqual(['order:a1', 'order:b1']);
  });

  it("a share's slow receivers hold only its own lanes: the other share is delivered meanwhile", async () => {
    const { db } = database;
    const time = manualClock();
    for (let i = 0; i < 6; i++)
      await enqueue(db, { key: `slow:${i}`, kind: 'shared', payload: {}, at: time.iso(), share: 'partner:slow' });
    time.advance(1000);
    for (let i = 0; i < 3; i++)
      await enqueue(db, { key: `prompt:${i}`, kind: 'shared', payload: {}, at: time.iso(), share: 'partner:prompt' });
    const deliveries = heldDeliveries((message) => message.key.startsWith('slow'));
    const worker = testWorker(
      db,
      time.clock,
      { shared: deliveries.handler },
      { concurrency: 4, inFlightPerShare: 2, intervalMs: 10 },
    );
    const pass = worker.runOnce();
    try {
      await until(() => deliveries.done.length >= 3, "the prompt share's deliveries");
      expect([...deliveries.done].sort()).toEqual(['prompt:0', 'prompt:1', 'prompt:2']);
      expect(deliveries.mostRunningHeld()).toBe(2);
    } finally {
      deliveries.release();
    }
    expect(await pass).toBe(9);
    expect(deliveries.mostRunningHeld()).toBe(2);
  });

  it('an idle lane keeps looking while another delivers: a message due meanwhile does not wait for it', async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'slow:idle', kind: 'idle', payload: {}, at: time.iso() });
    const deliveries = heldDeliveries((message) => message.key === 'slow:idle');
    const worker = testWorker(db, time.clock, { idle: deliveries.handler }, { concurrency: 2, intervalMs: 10 });
    const pass = worker.runOnce();
    try {
      await until(() => deliveries.running.has('slow:idle'), 'the slow delivery');
      await enqueue(db, { key: 'later:idle', kind: 'idle', payload: {}, at: time.iso() });
      await until(() => deliveries.done.includes('later:idle'), 'the message due meanwhile');
      expect(deliveries.running.has('slow:idle')).toBe(true);
    } finally {
      deliveries.release();
    }
    expect(await pass).toBe(2);
    expect(await findMessage(db, 'later:idle')).toMatchObject({ state: 'SENT' });
  });
});
