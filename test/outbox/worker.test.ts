import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.js';
import { enqueue, findMessage, type OutboxMessage } from '../../src/db/outbox/repository.js';
import { backoffMs } from '../../src/db/outbox/kinds.js';
import { startOutboxWorker } from '../../src/db/outbox/worker.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { manualClock, testWorker } from './support.js';

describe(`outbox worker (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();

  it('two workers on two connections deliver each message exactly once', async () => {
    const { db } = database;
    const other = connectDatabase(database.database);
    try {
      const time = manualClock();
      const N = 40;
      for (let i = 0; i < N; i++) await enqueue(db, { key: `two:${i}`, kind: 'two', payload: { i }, at: time.iso() });
      const deliveries = new Map<string, number>();
      const byWorker = [0, 0];
      const handler = (worker: number) => async (message: OutboxMessage) => {
        await tick();
        deliveries.set(message.key, (deliveries.get(message.key) ?? 0) + 1);
        byWorker[worker]!++;
      };
      const a = testWorker(db, time.clock, { two: handler(0) });
      const b = testWorker(other, time.clock, { two: handler(1) });
      let delivered = 0;
      for (;;) {
        const [x, y] = await Promise.all([a.runOnce(), b.runOnce()]);
        if (x + y === 0) break;
        delivered += x + y;
      }
      expect(delivered).toBe(N);
      expect(deliveries.size).toBe(N);
      expect([...deliveries.values()].every((count) => count === 1)).toBe(true);
      expect(byWorker[0]! + byWorker[1]!).toBe(N);
      expect(byWorker.every((count) => count > 0)).toBe(true); // both took part
      const sent = await db.selectFrom('outbox_message').select('state').where('kind', '=', 'two').execute();
      expect(sent.every((row) => row.state === 'SENT')).toBe(true);
    } finally {
      await other.destroy();
    }
  });

  it('retries a throwing handler with back-off and marks it FAILED after max attempts', async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'fail:1', kind: 'fail', payload: { secret: 'value' }, at: time.iso() });
    const attempts: number[] = [];
    const worker = testWorker(db, time.clock, {
      fail: (message) => {
        attempts.push(message.attempts);
        return Promise.reject(Object.assign(new Error('smtp said no to someone@example.test'), { code: 'EENVELOPE' }));
      },
    });
    expect(await worker.runOnce()).toBe(0);
    let message = await findMessage(db, 'fail:1');
    expect(message).toMatchObject({ state: 'PENDING', attempts: 1, lastError: 'Error EENVELOPE' });
    // Not due before its back-off (1000 ms · 2^0, jitter pinned to the low half: 500 ms).
    time.advance(499);
    expect(await worker.runOnce()).toBe(0);
    expect(attempts).toEqual([1]);
    time.advance(1);
    await worker.runOnce();
    expect(attempts).toEqual([1, 2]);
    time.advance(999); // second back-off: 1000 ms
    await worker.runOnce();
    expect(attempts).toEqual([1, 2]);
    time.advance(1);
    await worker.runOnce();
    expect(attempts).toEqual([1, 2, 3]);
    message = await findMessage(db, 'fail:1');
    expect(message).toMatchObject({ state: 'FAILED', attempts: 3, lastError: 'Error EENVELOPE' });
    expect(JSON.stringify(message)).not.toContain('someone@example.test');
    time.advance(86_400_000);
    await worker.runOnce();
    expect(attempts).toHaveLength(3);
  });

  it('a refusal marked permanent (an SMTP 5xx) fails at once, without retries', async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'refused:1', kind: 'refused', payload: {}, at: time.iso() });
    const worker = testWorker(db, time.clock, {
      refused: () =>
        Promise.reject(Object.assign(new Error('550 no such user'), { code: 'EENVELOPE', permanent: true })),
    });
    expect(await worker.runOnce()).toBe(0);
    expect(await findMessage(db, 'refused:1')).toMatchObject({ state: 'FAILED', attempts: 1 });
  });

  it('back-off doubles, is capped, and jitters within its upper half', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 1000, 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(40, 1000, 1)).toBe(3_600_000);
    expect(backoffMs(3, 1000, 0)).toBe(2000);
    expect(backoffMs(3, 1000, 0.5)).toBe(3000);
  });

  it('takes over a message whose worker died (lease expired), not one whose lease is live', async () => {
    const { db } = database;
    const time = manualClock();
    for (const key of ['dead:1', 'live:1', 'last:1'])
      await enqueue(db, { key, kind: 'lease', payload: {}, at: time.iso() });
    const lease = (key: string, until: string, attempts: number) =>
      db
        .updateTable('outbox_message')
        .set({ lease_owner: 'dead-worker', lease_until: until, attempts })
        .where('message_key', '=', key)
        .execute();
    await lease('dead:1', '2026-11-27T09:59:59.999Z', 1);
    await lease('live:1', '2026-11-27T10:00:30.000Z', 1);
    await lease('last:1', '2026-11-27T09:00:00.000Z', 3); // its last attempt died with its worker
    const seen: string[] = [];
    const worker = testWorker(db, time.clock, { lease: (m) => Promise.resolve(void seen.push(m.key)) });
    expect(await worker.runOnce()).toBe(1);
    expect(seen).toEqual(['dead:1']);
    expect(await findMessage(db, 'dead:1')).toMatchObject({ state: 'SENT', attempts: 2 });
    expect(await findMessage(db, 'last:1')).toMatchObject({ state: 'FAILED', lastError: 'LeaseExpired' });
    time.advance(30_001);
    expect(await worker.runOnce()).toBe(1);
    expect(seen).toEqual(['dead:1', 'live:1']);
  });

  it('leaves kinds it has no handler for; stop() awaits a running pass; its timer delivers', async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'other:1', kind: 'other', payload: {}, at: time.iso() });
    await enqueue(db, { key: 'slow:1', kind: 'slow', payload: {}, at: time.iso() });
    let release: (() => void) | undefined;
    let finished = false;
    const slow = testWorker(db, time.clock, {
      slow: async () => {
        await new Promise<void>((resolve) => (release = resolve));
        finished = true;
      },
    });
    const pass = slow.runOnce();
    // The handler is running (not merely leased: the lease commits before the handler is called).
    while (!release) await tick();
    const stopping = slow.stop().then(() => finished);
    release();
    expect(await stopping).toBe(true);
    expect(await pass).toBe(1);
    expect((await findMessage(db, 'other:1'))?.state).toBe('PENDING');

    let resolveDelivered: (m: OutboxMessage) => void = () => undefined;
    const delivered = new Promise<OutboxMessage>((resolve) => (resolveDelivered = resolve));
    const timed = startOutboxWorker(
      { db, clock: time.clock },
      { other: (m) => Promise.resolve(resolveDelivered(m)) },
      { intervalMs: 10, leaseSeconds: 60, maxAttempts: 3, baseBackoffMs: 1000, concurrency: 1, stopGraceMs: 1000 },
    );
    try {
      expect((await delivered).key).toBe('other:1');
    } finally {
      await timed.stop();
    }
  });
});
