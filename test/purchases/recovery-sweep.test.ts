import { afterEach, describe, expect, it } from 'vitest';
import { sweepServerConfig } from '../helpers/sweep-server.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { startRecoverySweep } from '../../src/purchases/sweeper.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { books, NOW } from './support.js';
import { buyDirectly, dyingAfter, later, purchaseOf } from './recovery-support.js';
import { scaled } from '../helpers/time-scale.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

/** Another process's connection to the test's database. */
const opened: Db[] = [];
function secondConnection(t: TestApp): Db {
  const db = connectDatabase(t.database.database);
  opened.push(db);
  return db;
}
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(opened.splice(0).map((db) => db.destroy()));
});

describe(`purchase recovery sweep (${DIALECT})`, () => {
  it('two processes sweeping at once: one settles the abandoned purchase, the other skips it', async () => {
    const t = getApp();
    const { quoteId } = await buyDirectly(t, dyingAfter(t, 'authorise'));
    const sweeps = [t.context.db, secondConnection(t)].map((db) =>
      startRecoverySweep(
        { db, gateways: t.app.paymentGateways, clock: later(120) },
        { intervalSeconds: 3600, graceSeconds: 60 },
      ),
    );
    const reports = await Promise.all(sweeps.map((sweep) => sweep.runOnce()));
    await Promise.all(sweeps.map((sweep) => sweep.stop()));
    const settled = reports.map((report) => report?.examined.STARTED ?? 0);
    expect(settled.sort()).toEqual([0, 1]);
    expect((await purchaseOf(t, quoteId)).state).toBe('CAPTURED');
    expect(await books(t, quoteId)).toMatchObject({ policies: 1, captures: 1 });
  });

  it('running servers finish a purchase another process abandoned, without a restart, exactly once', async () => {
    const t = getApp();
    const config = sweepServerConfig(t.database.database, { PURCHASE_RECOVERY_GRACE_SECONDS: '1' });
    for (let i = 0; i < 2; i += 1) servers.push(await startServer(config, { db: secondConnection(t), logger: false }));
    // Abandoned after the servers started: their start-up recovery never saw it.
    const { quoteId } = await buyDirectly(t, dyingAfter(t, 'authorise'));
    expect((await purchaseOf(t, quoteId)).state).toBe('STARTED');
    const deadline = Date.now() + scaled(15_000);
    while ((await purchaseOf(t, quoteId)).state !== 'CAPTURED' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await purchaseOf(t, quoteId)).state).toBe('CAPTURED');
    expect(await books(t, quoteId)).toMatchObject({ policies: 1, captures: 1 });
  });
});
