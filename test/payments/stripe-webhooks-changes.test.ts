import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { findChangeById } from '../../src/policy-changes/repository.js';
import { stripeWebhookDepsFor } from '../../src/payments/stripe/webhooks/deps.js';
import { applyDueEvents } from '../../src/payments/stripe/webhooks/service.js';
import { Crash } from '../purchases/recovery-support.js';
import { boughtPolicy, CARDS, confirm, NOW, previewAmendment, type ChangeAnswer } from '../policy-changes/support.js';
import { deliver, paymentIntent, SECRET, settled, stripeEvent } from './stripe-webhooks-support.js';

let clockAt = NOW;
let hook: ((step: string) => void) | undefined;
const getApp = useTestApp({
  env: { DEMO_DATA: 'true', STRIPE_WEBHOOK_SECRET: SECRET },
  clock: () => clockAt,
  crashHook: (step) => hook?.(step),
});
afterEach(() => {
  clockAt = NOW;
  hook = undefined;
});

const sandboxPayment = (t: TestApp, paymentId: string) =>
  t.context.db.selectFrom('sandbox_payment').selectAll().where('payment_id', '=', paymentId).executeTakeFirstOrThrow();

describe(`Stripe webhooks and policy changes (${DIALECT})`, () => {
  it("an amendment's charge captured at the gateway, its commit cut: the event settles it once, after the grace", async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);
    const preview = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-30' })
    ).json<ChangeAnswer>();
    hook = (step) => {
      if (step === 'capture') throw new Crash('the connection was cut after the gateway captured');
    };
    const cut = await confirm(t, policyNumber, 'amendments', preview.id!, {
      key: 'stripe-amend-1',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(cut.statusCode).toBeGreaterThanOrEqual(500);
    hook = undefined;
    const applied = await findChangeById(t.context.db, preview.id!);
    expect(applied).toMatchObject({ state: 'APPLIED' });
    const amountMinor = applied!.amountMinor;
    expect(await sandboxPayment(t, applied!.paymentId!)).toMatchObject({ captured_minor: amountMinor });

    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(applied!.paymentId!, 'succeeded', amountMinor),
      clockAt,
    );
    await deliver(t, event);
    expect(await settled(t, event.id)).toMatchObject({ state: 'RECEIVED', outcome: expect.stringMatching(/^waiting/) });
    clockAt = new Date(NOW.getTime() + 61_000);
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
