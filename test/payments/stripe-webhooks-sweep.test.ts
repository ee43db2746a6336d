import { afterEach, describe, expect, it } from 'vitest';
import { sweepServerConfig } from '../helpers/sweep-server.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { eventFactsOf } from '../../src/payments/stripe/webhooks/facts.js';
import { disputesOf, findEvent, recordEvent } from '../../src/payments/stripe/webhooks/repository.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { until } from '../helpers/polling.js';
import { NOW } from '../purchases/support.js';
import { SECRET, stripeEvent } from './stripe-webhooks-support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true', STRIPE_WEBHOOK_SECRET: SECRET }, clock: () => NOW });

const servers: RunningServer[] = [];
const opened: Db[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(opened.splice(0).map((db) => db.destroy()));
});

/** An event a process recorded and then died before applying (its hold already over). */
async function recordedAndAbandoned(db: Db, disputeId: string) {
  const event = stripeEvent(
    'charge.dispute.created',
    {
      id: disputeId,
      amount: 700,
      currency: 'aud',
      payment_intent: `pi_${disputeId}`,
      reason: 'general',
      status: 'needs_response',
    },
    NOW,
  );
  const facts = eventFactsOf(event);
  expect(await recordEvent(db, facts, NOW.toISOString(), NOW.toISOString())).toBe(true);
  return event.id;
}

describe(`Stripe events in the server's sweep (${DIALECT})`, () => {
  it('a running server applies an event another process recorded and abandoned: at start, and in its periodic sweep', async () => {
    const t = getApp();
    const atStart = await recordedAndAbandoned(t.context.db, 'du_sweep_start');
    const config = sweepServerConfig(t.database.database, {
      PURCHASE_RECOVERY_GRACE_SECONDS: '1',
      STRIPE_WEBHOOK_SECRET: SECRET,
    });
    const db = connectDatabase(t.database.database);
    opened.push(db);
    servers.push(await startServer(config, { db, logger: false }));
    // Applied before the server took requests.
    expect(await findEvent(t.context.db, atStart)).toMatchObject({ state: 'DONE', attempts: 2 });
    expect(await disputesOf(t.context.db, 'pi_du_sweep_start')).toHaveLength(1);

    const meanwhile = await recordedAndAbandoned(t.context.db, 'du_sweep_later');
    await until(async () => (await findEvent(t.context.db, meanwhile))?.state === 'DONE', 'the sweep to apply it');
    expect(await disputesOf(t.context.db, 'pi_du_sweep_later')).toEqual([
      expect.objectContaining({ disputeId: 'du_sweep_later', status: 'needs_response', closed: false }),
    ]);
  });
});
