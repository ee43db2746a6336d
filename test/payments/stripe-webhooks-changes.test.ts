import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { findChangeById } from '../../src/policy-changes/repository.js';
import { changeDepsFor } from '../../src/policy-changes/deps.js';
import { recoverPolicyChanges } from '../../src/policy-changes/recovery.js';
import { stripeWebhookDepsFor } from '../../src/payments/stripe/webhooks/deps.js';
import { applyDueEvents } from '../../src/payments/stripe/webhooks/service.js';
import { Crash } from '../purchases/recovery-support.js';
import { boughtPolicy, CARDS, confirm, NOW, previewAmendment, type ChangeAnswer } from '../policy-changes/support.js';
import { useStripeWebhookApp, deliver, paymentIntent, settled, stripeEvent } from './stripe-webhooks-support.js';

const world = useStripeWebhookApp(NOW);
const getApp = world.getApp;

const sandboxPayment = (t: TestApp, paymentId: string) =>
  t.context.db.selectFrom('sandbox_payment').selectAll().where('payment_id', '=', paymentId).executeTakeFirstOrThrow();

describe(`Stripe webhooks and policy changes (${DIALECT})`, () => {
  it("an amendment's charge captured at the gateway, its commit cut: the event settles it once, after the grace", async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);
    const preview = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-30' })
    ).json<ChangeAnswer>();
    world.hook = (step) => {
      if (step === 'capture') throw new Crash('the connection was cut after the gateway captured');
    };
    const cut = await confirm(t, policyNumber, 'amendments', preview.id!, {
      key: 'stripe-amend-1',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(cut.statusCode).toBeGreaterThanOrEqual(500);
    world.hook = undefined;
    const applied = await findChangeById(t.context.db, preview.id!);
    expect(applied).toMatchObject({ state: 'APPLIED' });
    const amountMinor = applied!.amountMinor;
    expect(await sandboxPayment(t, applied!.paymentId!)).toMatchObject({ captured_minor: amountMinor });

    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(applied!.paymentId!, 'succeeded', amountMinor),
      world.clockAt,
    );
    await deliver(t, event);
    expect(await settled(t, event.id)).toMatchObject({ state: 'RECEIVED', outcome: expect.stringMatching(/^waiting/) });
    world.clockAt = new Date(NOW.getTime() + 61_000);
    expect(await applyDueEvents(stripeWebhookDepsFor(t.context, t.app.paymentGateways))).toMatchObject({ applied: 1 });
    expect(await findChangeById(t.context.db, preview.id!)).toMatchObject({ state: 'SETTLED' });
    // The captured amount is the change's, once (a second capture under the same key is a replay).
    expect(await sandboxPayment(t, applied!.paymentId!)).toMatchObject({ captured_minor: amountMinor });
    const captured = await t.context.db
      .selectFrom('partner_event')
      .select('id')
      .where('type', '=', 'payment.captured')
      .where('policy_number', '=', policyNumber)
      .execute();
    expect(captured).toHaveLength(2); // the purchase's and the amendment's
  });
});

describe(`Stripe webhooks: an application that fails is retried (${DIALECT})`, () => {
  it('a failed refund while another change holds the policy: postponed with the error, applied by the sweep later', async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);
    const shorter = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-16' })
    ).json<ChangeAnswer>();
    expect(shorter.difference!.transactionAmount).toBeLessThan(0);
    expect((await confirm(t, policyNumber, 'amendments', shorter.id!, { key: 'stripe-short-1' })).statusCode).toBe(200);
    const refunded = await findChangeById(t.context.db, shorter.id!);
    expect(refunded).toMatchObject({ state: 'SETTLED' });
    const line = refunded!.refunds![0]!;
    // Another change holds the policy: a challenge waiting for the cardholder.
    const longer = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-30' })
    ).json<ChangeAnswer>();
    const waiting = await confirm(t, policyNumber, 'amendments', longer.id!, {
      key: 'stripe-long-1',
      body: { cardToken: { token: CARDS.threeDsChallenge } },
    });
    expect(waiting.json<{ paymentResult: string }>().paymentResult).toBe('THREEDS_CHALLENGE_REQUIRED');

    const refund = {
      id: 're_held_1',
      object: 'refund',
      amount: line.amountMinor,
      currency: 'aud',
      payment_intent: line.paymentId,
      status: 'failed',
    };
    const event = stripeEvent('refund.failed', refund, world.clockAt);
    await deliver(t, event);
    const failed = await settled(t, event.id);
    // The one-holder index refused ATTENTION (SQLite's name, PostgreSQL's 23505): no value kept.
    expect(failed).toMatchObject({ state: 'RECEIVED', lastError: expect.stringMatching(/UNIQUE|23505/) });
    expect(await findChangeById(t.context.db, shorter.id!)).toMatchObject({ state: 'SETTLED' });

    // The waiting change lets go (the cardholder never answers: recovery returns it to PREVIEW)…
    const held = await findChangeById(t.context.db, longer.id!);
    world.clockAt = new Date(Date.parse(held!.challengeExpiresAt!) + 1000);
    await recoverPolicyChanges(changeDepsFor(t.context, t.app.paymentGateways), { graceSeconds: 60 });
    expect(await findChangeById(t.context.db, longer.id!)).toMatchObject({ state: 'PREVIEW' });
    // … and the next sweep past the retry's delay applies the event.
    world.clockAt = new Date(world.clockAt.getTime() + 3_600_000);
    expect(await applyDueEvents(stripeWebhookDepsFor(t.context, t.app.paymentGateways))).toMatchObject({ applied: 1 });
    expect(await findChangeById(t.context.db, shorter.id!)).toMatchObject({
      state: 'ATTENTION',
      declineReason: 'REFUND_FAILED',
    });
    const done = await settled(t, event.id);
    expect(done).toMatchObject({ state: 'DONE', attempts: 2 });
    expect(done).not.toHaveProperty('lastError');
  });
});
