import { describe, expect, it } from 'vitest';
import { enqueue, findMessage } from '../../src/db/outbox/repository.js';
import { ABORT_SETTLE_MS } from '../../src/db/outbox/stop-bound.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { until } from '../helpers/polling.js';
import { scaled } from '../helpers/time-scale.js';
import { manualClock, testWorker } from './support.js';

const GRACE_MS = 200;

describe(`outbox worker stop within a bound (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();

  it('aborts a delivery that outlives the grace and gives its message back, the attempt not spent', async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'stop:heeds', kind: 'slow', payload: {}, at: time.iso() });
    let started = false;
    const worker = testWorker(
      db,
      time.clock,
      {
        slow: {
          deliver: (_message, _prepared, signal) =>
            new Promise<void>((_resolve, reject) => {
              started = true;
              signal?.addEventListener('abort', () => reject(new Error('aborted')));
            }),
        },
      },
      { stopGraceMs: GRACE_MS },
    );
    const pass = worker.runOnce();
    await until(() => started, 'the delivery under way', scaled(5_000));
    await worker.stop();
    expect(await pass).toBe(0);
    expect(await findMessage(db, 'stop:heeds')).toMatchObject({ state: 'PENDING', attempts: 0 });
    const row = await db
      .selectFrom('outbox_message')
      .select(['lease_owner', 'next_attempt_at'])
      .where('message_key', '=', 'stop:heeds')
      .executeTakeFirstOrThrow();
    // Due at once for another worker or the restart, not after a back-off nor a lease's expiry.
    expect(row).toEqual({ lease_owner: null, next_attempt_at: time.iso() });
  });

  it('does not wait for a delivery that ignores the abort beyond the grace and the settle time', async () => {
    const { db } = database;
    const time = manualClock();
    await enqueue(db, { key: 'stop:ignores', kind: 'deaf', payload: {}, at: time.iso() });
    let started = false;
    const worker = testWorker(
      db,
      time.clock,
      {
        deaf: () =>
          new Promise<void>(() => {
            started = true;
          }),
      },
      { stopGraceMs: GRACE_MS },
    );
    void worker.runOnce().catch(() => undefined);
    await until(() => started, 'the delivery under way', scaled(5_000));
    const stopping = performance.now();
    await worker.stop();
    const took = performance.now() - stopping;
    expect(took).toBeGreaterThanOrEqual(GRACE_MS + ABORT_SETTLE_MS - 20);
    expect(took).toBeLessThan(scaled(GRACE_MS + ABORT_SETTLE_MS + 500));
    // Its lease is left to expire (the delivery may still be under way).
    expect(await findMessage(db, 'stop:ignores')).toMatchObject({ state: 'PENDING', attempts: 1 });
  });
});
