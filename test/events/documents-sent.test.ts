import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISH_EVENT } from '../../src/events/repository.js';
import type { PartnerEvent } from '../../src/events/model.js';
import { findMessage, redeliver } from '../../src/db/outbox/repository.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { startSmtpServer, workerOf } from '../documents/delivery-support.js';
import { boughtPolicy, NOW } from '../policy-changes/support.js';
import { eventsOfPolicy, publishEvents, wholeFeed } from './support.js';

describe(`documents.sent and publishing (${DIALECT})`, () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({ env: { DEMO_DATA: 'true', SMTP_URL: smtp.url }, clock: () => NOW });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('the e-mail sent: documents.sent, committed with its SENT mark, third in the policy', async () => {
    const { policyNumber } = await boughtPolicy(t, { input: { externalIdentifiers: { bookingReference: 'BK-7' } } });
    const worker = workerOf(t);
    expect(await worker.runOnce()).toBe(1);
    await worker.stop();
    const events = await eventsOfPolicy(t, policyNumber);
    expect(events.map((e) => [e.type, e.data.policyEventSequence])).toEqual([
      ['policy.issued', 1],
      ['payment.captured', 2],
      ['documents.sent', 3],
    ]);
    expect(events[2]!.data).toMatchObject({
      policyNumber,
      brandCode: 'brandau',
      sequenceNumber: 1,
      actionType: 'Purchase',
      recipient: 'PRIMARY_TRAVELLER',
      externalIdentifiers: { bookingReference: 'BK-7' },
    });
  });

  it('no e-mail address, nothing sent: no documents.sent', async () => {
    const { policyNumber } = await boughtPolicy(t);
    const header = t.context.db.selectFrom('policy_header').select('id').where('policy_number', '=', policyNumber);
    await t.context.db
      .updateTable('policy_traveller')
      .set({ email_address: null })
      .where('policy_header_id', '=', header)
      .execute();
    const worker = workerOf(t);
    expect(await worker.runOnce()).toBe(1);
    await worker.stop();
    expect((await eventsOfPolicy(t, policyNumber)).map((e) => e.type)).toEqual(['policy.issued', 'payment.captured']);
  });

  it('publishing again (the message redelivered) keeps the feed position and fans out again', async () => {
    const { policyNumber } = await boughtPolicy(t);
    const fannedOut: PartnerEvent[] = [];
    await publishEvents(t, (_tx, event) => Promise.resolve(fannedOut.push(event)));
    const event = fannedOut.find((e) => e.policyNumber === policyNumber)!;
    expect(event.feedPosition).toBeGreaterThan(0);
    const feed = await wholeFeed(t);

    const key = `${PUBLISH_EVENT}:${event.id}`;
    expect((await findMessage(t.context.db, key))?.state).toBe('SENT');
    await redeliver(t.context.db, { key, kind: PUBLISH_EVENT, payload: { eventId: event.id }, at: NOW.toISOString() });
    fannedOut.length = 0;
    expect(await publishEvents(t, (_tx, e) => Promise.resolve(fannedOut.push(e)))).toBe(1);
    expect(fannedOut).toEqual([event]);
    expect(await wholeFeed(t)).toEqual(feed);
  });
});
