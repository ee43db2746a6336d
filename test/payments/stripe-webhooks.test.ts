import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { stripeWebhookDepsFor } from '../../src/payments/stripe/webhooks/deps.js';
import { disputesOf, findEvent } from '../../src/payments/stripe/webhooks/repository.js';
import { applyDueEvents } from '../../src/payments/stripe/webhooks/service.js';
import { recoverPurchases } from '../../src/purchases/recovery.js';
import { books, CARDS, NOW, purchase, purchaseBody, readyQuote } from '../purchases/support.js';
import { refundingChangesOf } from '../../src/policy-changes/repository-payments.js';
import { boughtPolicy, confirm, previewCancellation, type ChangeAnswer } from '../policy-changes/support.js';
import { buyDirectly, Crash, purchaseOf, recoveryDeps } from '../purchases/recovery-support.js';
import {
  useStripeWebhookApp,
  capturedEvents,
  deliver,
  paymentIntent,
  settled,
  stripeEvent,
} from './stripe-webhooks-support.js';

const world = useStripeWebhookApp(NOW);
const getApp = world.getApp;

/** Past the recovery grace (60 s): what our own process left is the sweep's. */
const afterGrace = (seconds = 61) => (world.clockAt = new Date(world.clockAt.getTime() + seconds * 1000));
const sweep = (t: TestApp) => applyDueEvents(stripeWebhookDepsFor(t.context, t.app.paymentGateways));
const eventRows = (t: TestApp) => t.context.db.selectFrom('stripe_event').select('event_id').execute();

/** A purchase the gateway captured for; our process died before anything after the issuing commit. */
async function issuedNotCaptured(t: TestApp) {
  const real = t.app.paymentGateway;
  const { quoteId, totalPrice } = await buyDirectly(t, {
    ...real,
    authorise: (r) => real.authorise(r),
    continueThreeDs: (r) => real.continueThreeDs(r),
    void: (r) => real.void(r),
    refund: (r) => real.refund(r),
    capture: () => Promise.reject(new Crash()),
  });
  const issued = await purchaseOf(t, quoteId);
  expect(issued.state).toBe('ISSUED');
  return { quoteId, amountMinor: Math.round(totalPrice * 100), purchase: issued };
}

describe(`Stripe webhooks (${DIALECT})`, () => {
  it('refuses a missing, wrong or stale signature with the error envelope, and records nothing', async () => {
    const t = getApp();
    const event = stripeEvent('payment_intent.succeeded', paymentIntent('pi_sig', 'succeeded', 100), world.clockAt);
    const before = (await eventRows(t)).length;
    for (const res of [
      await deliver(t, event, { header: null }),
      await deliver(t, event, { header: 't=1,v1=deadbeef' }),
      await deliver(t, event, { secret: 'whsec_another_secret_value' }),
      await deliver(t, event, { at: new Date(world.clockAt.getTime() - 301_000) }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        validation: { isValid: false, errors: [{ code: 'STRIPE_SIGNATURE_INVALID', property: 'Stripe-Signature' }] },
      });
    }
    expect((await eventRows(t)).length).toBe(before);
    expect(await findEvent(t.context.db, event.id)).toBeUndefined();
  });

  it('acknowledges an event for a payment we do not know, and does nothing', async () => {
    const t = getApp();
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent('pi_unknown_1', 'succeeded', 100),
      world.clockAt,
    );
    const res = await deliver(t, event);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await settled(t, event.id)).toMatchObject({ state: 'DONE', outcome: expect.stringMatching(/^nothing/) });
  });

  it('applies a redelivered event once: a dispute recorded once against the policy, no partner event', async () => {
    const t = getApp();
    const res = await purchase(t, purchaseBody(await readyQuote(t), CARDS.approved));
    const bought = res.json<{ paymentIds: string; quote: { policyNumber: string } }>();
    const dispute = {
      id: 'du_test_1',
      object: 'dispute',
      amount: 1000,
      currency: 'aud',
      payment_intent: bought.paymentIds,
      reason: 'fraudulent',
      status: 'needs_response',
    };
    const event = stripeEvent('charge.dispute.created', dispute, world.clockAt);
    expect((await deliver(t, event)).json()).toEqual({ received: true, duplicate: false });
    await settled(t, event.id);
    const again = await deliver(t, event);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    const recorded = await disputesOf(t.context.db, bought.paymentIds);
    expect(recorded).toEqual([
      expect.objectContaining({ disputeId: 'du_test_1', policyNumber: bought.quote.policyNumber, closed: false }),
    ]);
    expect((await findEvent(t.context.db, event.id))?.attempts).toBe(1);
    // Closed later (an older event arriving after it changes nothing).
    afterGrace(5);
    const closed = stripeEvent('charge.dispute.closed', { ...dispute, status: 'won' }, world.clockAt);
    await deliver(t, closed);
    await settled(t, closed.id);
    await deliver(t, stripeEvent('charge.dispute.created', dispute, NOW, 'evt_late_dispute'));
    await settled(t, 'evt_late_dispute');
    expect(await disputesOf(t.context.db, bought.paymentIds)).toEqual([
      expect.objectContaining({ status: 'won', closed: true }),
    ]);
    const types = await t.context.db
      .selectFrom('partner_event')
      .select('type')
      .where('policy_number', '=', bought.quote.policyNumber)
      .execute();
    expect(types.map((r) => r.type).sort()).toEqual(['payment.captured', 'policy.issued']);
  });

  it('payment_intent.succeeded before our capture: left to our step for the grace, then one capture and one payment.captured', async () => {
    const t = getApp();
    const { quoteId, amountMinor, purchase: issued } = await issuedNotCaptured(t);
    expect(await books(t, quoteId)).toMatchObject({ captures: 0 });
    const event = stripeEvent(
      'payment_intent.amount_capturable_updated',
      paymentIntent(issued.paymentId!, 'requires_capture', amountMinor),
      world.clockAt,
    );
    await deliver(t, event);
    expect(await settled(t, event.id)).toMatchObject({ state: 'RECEIVED', outcome: expect.stringMatching(/^waiting/) });
    expect(await books(t, quoteId)).toMatchObject({ captures: 0 });

    afterGrace();
    expect(await sweep(t)).toMatchObject({ applied: 1 });
    const captured = await purchaseOf(t, quoteId);
    expect(captured.state).toBe('CAPTURED');
    // Our own recovery, and the same event again, find it done.
    await recoverPurchases(
      recoveryDeps(t, undefined, () => world.clockAt),
      { graceSeconds: 0 },
    );
    await deliver(
      t,
      stripeEvent(
        'payment_intent.succeeded',
        paymentIntent(issued.paymentId!, 'succeeded', amountMinor),
        world.clockAt,
      ),
    );
    expect(await books(t, quoteId)).toMatchObject({ captures: 1, capturedMinor: amountMinor });
    expect(await capturedEvents(t, captured.policyNumber!)).toBe(1);
  });

  it('payment_intent.succeeded during our capture (gateway answered, commit cut): one capture and one payment.captured', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    world.hook = (step) => {
      if (step === 'capture') throw new Crash('the connection was cut after the gateway captured');
    };
    const cut = await purchase(t, purchaseBody(quote, CARDS.approved), { key: 'stripe-during-1' });
    expect(cut.statusCode).toBeGreaterThanOrEqual(500);
    world.hook = undefined;
    const issued = await purchaseOf(t, quote.id);
    expect(issued.state).toBe('ISSUED');
    const amountMinor = Math.round(quote.totalPrice * 100);
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(issued.paymentId!, 'succeeded', amountMinor),
      world.clockAt,
    );
    await deliver(t, event);
    await settled(t, event.id);
    afterGrace();
    await sweep(t);
    expect((await purchaseOf(t, quote.id)).state).toBe('CAPTURED');
    // The partner's retry with the same key answers from the record; nothing moves again.
    const retried = await purchase(t, purchaseBody(quote, CARDS.approved), { key: 'stripe-during-1' });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await books(t, quote.id)).toMatchObject({ captures: 1, capturedMinor: amountMinor });
    expect(await capturedEvents(t, issued.policyNumber!)).toBe(1);
  });

  it('payment_intent.succeeded arriving while our own commit runs, and after it: nothing twice', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const deliveries: Promise<unknown>[] = [];
    let eventId = '';
    world.hook = (step) => {
      if (step !== 'capture') return;
      // Between the gateway's answer and our commit, Stripe's event comes in.
      deliveries.push(
        t.context.db
          .selectFrom('purchase')
          .select(['payment_id', 'public_id'])
          .where('quote_id', '=', quote.id)
          .executeTakeFirstOrThrow()
          .then((row) => {
            const event = stripeEvent(
              'payment_intent.succeeded',
              paymentIntent(row.payment_id!, 'succeeded', 1),
              world.clockAt,
            );
            eventId = event.id;
            return deliver(t, event);
          }),
      );
    };
    const res = await purchase(t, purchaseBody(quote, CARDS.approved));
    expect(res.statusCode, res.body).toBe(200);
    world.hook = undefined;
    await Promise.all(deliveries);
    await settled(t, eventId);
    const bought = await purchaseOf(t, quote.id);
    expect(bought.state).toBe('CAPTURED');
    // After: the same news again, past the grace too.
    afterGrace();
    await sweep(t);
    const later = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(bought.paymentId!, 'succeeded', 1),
      world.clockAt,
    );
    await deliver(t, later);
    expect(await settled(t, later.id)).toMatchObject({
      state: 'DONE',
      outcome: expect.stringContaining('CAPTURED already'),
    });
    expect(await books(t, quote.id)).toMatchObject({ captures: 1 });
    expect(await capturedEvents(t, bought.policyNumber!)).toBe(1);
  });

  it('a crash after recording, before applying: the redelivery is acknowledged, the sweep applies it', async () => {
    const t = getApp();
    const { quoteId, amountMinor, purchase: issued } = await issuedNotCaptured(t);
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(issued.paymentId!, 'succeeded', amountMinor),
      world.clockAt,
    );
    world.hook = (step) => {
      if (step === 'stripe-event-recorded') throw new Crash('the process died after recording the event');
    };
    expect((await deliver(t, event)).statusCode).toBeGreaterThanOrEqual(500);
    world.hook = undefined;
    expect(await findEvent(t.context.db, event.id)).toMatchObject({ state: 'RECEIVED', attempts: 1 });
    expect((await deliver(t, event)).json()).toEqual({ received: true, duplicate: true });
    expect(await findEvent(t.context.db, event.id)).not.toHaveProperty('outcome');
    // Within the hold nothing applies it; past it the sweep does.
    expect(await sweep(t)).toEqual({ applied: 0, waiting: 0, failed: 0 });
    afterGrace();
    expect(await sweep(t)).toMatchObject({ applied: 1 });
    expect(await findEvent(t.context.db, event.id)).toMatchObject({ state: 'DONE', attempts: 2 });
    expect((await purchaseOf(t, quoteId)).state).toBe('CAPTURED');
    expect(await books(t, quoteId)).toMatchObject({ captures: 1, capturedMinor: amountMinor });
  });

  it('a refund that fails after Stripe accepted it puts the change in ATTENTION, once', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const preview = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    const done = await confirm(t, policyNumber, 'cancellations', preview.id!, { key: 'stripe-refund-1' });
    expect(done.statusCode, done.body).toBe(200);
    const [settledChange] = await refundingChangesOf(t.context.db, policyNumber);
    expect(settledChange).toMatchObject({ state: 'SETTLED' });
    const line = settledChange!.refunds![0]!;
    const refund = {
      id: 're_test_1',
      object: 'refund',
      amount: line.amountMinor,
      currency: 'aud',
      payment_intent: line.paymentId,
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
    };
    const failed = stripeEvent('refund.failed', refund, world.clockAt);
    await deliver(t, failed);
    expect(await settled(t, failed.id)).toMatchObject({ state: 'DONE', outcome: expect.stringContaining('ATTENTION') });
    const [attention] = await refundingChangesOf(t.context.db, policyNumber);
    expect(attention).toMatchObject({ id: settledChange!.id, state: 'ATTENTION', declineReason: 'REFUND_FAILED' });
    expect(attention!.refunds).toEqual([{ ...line, refunded: false }]);
    // Stripe's other news of the same refund changes nothing more.
    const updated = stripeEvent('refund.updated', refund, world.clockAt);
    await deliver(t, updated);
    expect(await settled(t, updated.id)).toMatchObject({ state: 'DONE', outcome: expect.stringMatching(/^nothing/) });
    expect((await refundingChangesOf(t.context.db, policyNumber))[0]).toEqual(attention);
  });
});
