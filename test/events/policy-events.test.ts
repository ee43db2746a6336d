import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { CARDS, purchase, purchaseBody, readyQuote, type PurchaseAnswer } from '../purchases/support.js';
import {
  boughtPolicy,
  confirm,
  NOW,
  previewAmendment,
  previewCancellation,
  type ChangeAnswer,
} from '../policy-changes/support.js';
import { eventsOfPolicy, publishEvents, wholeFeed } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });
const BOOKING = { externalIdentifiers: { bookingReference: 'BK-10293' } };

describe(`partner events of a policy's life (${DIALECT})`, () => {
  it('a purchase: policy.issued then payment.captured, sequence 1 and 2, with what a partner acts on', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t, { input: BOOKING });
    const events = await eventsOfPolicy(t, policyNumber);
    expect(events.map((e) => [e.type, e.data.policyEventSequence])).toEqual([
      ['policy.issued', 1],
      ['payment.captured', 2],
    ]);
    const [issued, captured] = events;
    expect(issued!.id).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
    expect(issued!.timestamp).toBe(NOW.toISOString());
    expect(issued!.data).toMatchObject({
      policyNumber,
      brandCode: 'brandau',
      sequenceNumber: 1,
      actionType: 'Purchase',
      policyStatus: 'Active',
      amounts: { currency: 'AUD' },
      externalIdentifiers: { bookingReference: 'BK-10293' },
    });
    const amounts = issued!.data.amounts as { transactionAmount: number; totalPaidToDate: number };
    expect(amounts.transactionAmount).toBeGreaterThan(0);
    expect(amounts.totalPaidToDate).toBe(amounts.transactionAmount);
    expect(typeof issued!.data.quoteId).toBe('string');
    expect(captured!.data).toMatchObject({
      policyNumber,
      amount: amounts.transactionAmount,
      currency: 'AUD',
      quoteId: issued!.data.quoteId,
      externalIdentifiers: { bookingReference: 'BK-10293' },
    });
    expect(captured!.data.paymentReference).toEqual(expect.any(String));
    expect(captured!.data.paymentMethod).toBe('CARD');
    // The same keys in the same order on both engines (the bytes a delivery signs).
    expect(Object.keys(issued!.data)).toEqual([
      'policyNumber',
      'brandCode',
      'sequenceNumber',
      'actionType',
      'policyStatus',
      'amounts',
      'quoteId',
      'externalIdentifiers',
      'policyEventSequence',
    ]);
    expect(Object.keys(captured!.data)).toEqual([
      'policyNumber',
      'brandCode',
      'sequenceNumber',
      'amount',
      'currency',
      'paymentReference',
      'paymentMethod',
      'quoteId',
      'externalIdentifiers',
      'policyEventSequence',
    ]);
  });

  it('amendments (a charge, a refund) and a cancellation: each its events, gapless per policy in commit order', async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t, { input: BOOKING });
    const longer = (
      await previewAmendment(t, policyNumber, { ...input, ...BOOKING, returnDate: '2026-12-30' })
    ).json<ChangeAnswer>();
    expect(
      (
        await confirm(t, policyNumber, 'amendments', longer.id!, {
          key: 'ev-amend-1',
          body: { cardToken: { token: CARDS.approved } },
        })
      ).statusCode,
    ).toBe(200);
    const shorter = (
      await previewAmendment(t, policyNumber, { ...input, ...BOOKING, returnDate: '2026-12-20' })
    ).json<ChangeAnswer>();
    expect((await confirm(t, policyNumber, 'amendments', shorter.id!, { key: 'ev-amend-2' })).statusCode).toBe(200);
    const cancel = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    expect((await confirm(t, policyNumber, 'cancellations', cancel.id!, { key: 'ev-cancel-1' })).statusCode).toBe(200);

    const events = await eventsOfPolicy(t, policyNumber);
    expect(events.map((e) => e.type)).toEqual([
      'policy.issued',
      'payment.captured',
      'policy.amended',
      'payment.captured',
      'policy.amended',
      'payment.refunded',
      'policy.cancelled',
      'payment.refunded',
    ]);
    expect(events.map((e) => e.data.policyEventSequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.map((e) => e.data.sequenceNumber)).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
    for (const e of events) expect(e.data.externalIdentifiers).toEqual({ bookingReference: 'BK-10293' });

    const money = (i: number) => events[i]!.data.amounts as { transactionAmount: number; totalPaidToDate: number };
    expect(money(2).transactionAmount).toBeCloseTo(longer.difference!.transactionAmount, 2);
    expect(money(2).totalPaidToDate).toBeCloseTo(money(0).totalPaidToDate + money(2).transactionAmount, 2);
    expect(events[3]!.data.amount).toBeCloseTo(money(2).transactionAmount, 2);
    expect(money(4).transactionAmount).toBeLessThan(0);
    expect(events[5]!.data.amount).toBeCloseTo(-money(4).transactionAmount, 2);
    expect(events[6]!.data).toMatchObject({
      actionType: 'Cancellation',
      policyStatus: 'Cancelled',
      reasonCode: 'TRIP_CANCELLED',
      sequenceNumber: 4,
    });
    // Cooling-off: everything paid comes back.
    expect(money(6).totalPaidToDate).toBe(0);
    expect((events[7]!.data.refunds as unknown[]).length).toBeGreaterThan(0);
  });

  it('a declined card: purchase.declined with the quote and the reason, no policy event', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const res = await purchase(t, purchaseBody(quote, CARDS.declined));
    expect(res.json<PurchaseAnswer>().paymentResult).toBe('DECLINED');
    await publishEvents(t);
    const declined = (await wholeFeed(t)).filter((e) => e.type === 'purchase.declined' && e.data.quoteId === quote.id);
    expect(declined).toHaveLength(1);
    expect(declined[0]!.data).toMatchObject({
      brandCode: 'brandau',
      currency: 'AUD',
      paymentResult: 'DECLINED',
      quoteId: quote.id,
      externalIdentifiers: { bookingReference: null },
    });
    expect(declined[0]!.data.amount).toBeCloseTo(quote.totalPrice, 2);
    expect(declined[0]!.data.policyEventSequence).toBeUndefined();
  });

  it('an event is recorded with its change: a purchase rolled back records none (one per cause)', async () => {
    const t = getApp();
    const { db } = t.context;
    const before = await db.selectFrom('partner_event').select('source_key').execute();
    const keys = before.map((row) => row.source_key);
    expect(new Set(keys).size).toBe(keys.length);
    // Every recorded event has its publishing message, committed with it.
    const messages = await db
      .selectFrom('outbox_message')
      .select('message_key')
      .where('kind', '=', 'partner-event')
      .execute();
    expect(messages).toHaveLength(before.length);
  });
});
