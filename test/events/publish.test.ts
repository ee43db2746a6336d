import { describe, expect, it } from 'vitest';
import type { PartnerEvent } from '../../src/events/model.js';
import { publishEventHandler } from '../../src/events/publish.js';
import { PUBLISH_EVENT } from '../../src/events/repository.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { testWorker } from '../outbox/support.js';
import { boughtPolicy, NOW } from '../policy-changes/support.js';
import { wholeFeed } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`publishing partner events (${DIALECT})`, () => {
  it('workers publishing at once: each event once, feed positions distinct and gapless in the feed', async () => {
    const t = getApp();
    for (let i = 0; i < 3; i++) await boughtPolicy(t);
    const { db, clock } = t.context;
    const fannedOut: PartnerEvent[] = [];
    const handler = publishEventHandler({
      db,
      clock,
      fanOut: (_tx, event) => Promise.resolve(fannedOut.push(event)),
    });
    const workers = [1, 2, 3].map(() => testWorker(db, clock, { [PUBLISH_EVENT]: handler }));
    const delivered = await Promise.all(workers.map((w) => w.runOnce()));
    await Promise.all(workers.map((w) => w.stop()));

    expect(delivered.reduce((a, b) => a + b, 0)).toBe(6);
    expect(new Set(fannedOut.map((e) => e.id)).size).toBe(6);
    const positions = fannedOut.map((e) => e.feedPosition!).sort((a, b) => a - b);
    expect(positions).toEqual([1, 2, 3, 4, 5, 6]);
    const feed = await wholeFeed(t);
    expect(feed.map((e) => e.id)).toEqual(
      [...fannedOut].sort((a, b) => a.feedPosition! - b.feedPosition!).map((e) => e.id),
    );
    // Publishers racing may publish a policy's events out of their order: the sequence tells it.
    for (const policyNumber of new Set(feed.map((e) => e.data.policyNumber))) {
      const ofPolicy = feed.filter((e) => e.data.policyNumber === policyNumber);
      expect(ofPolicy.map((e) => e.data.policyEventSequence).sort()).toEqual([1, 2]);
    }
  });
});
