import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { loadConfig } from '../../src/config/config.js';
import {
  answerChallenge,
  books,
  CARDS,
  NOW,
  purchase,
  purchaseBody,
  readyQuote,
  type PurchaseAnswer,
} from '../purchases/support.js';
import { purchaseOf } from '../purchases/recovery-support.js';
import { capturedEvents, deliver, paymentIntent, SECRET, settled, stripeEvent } from './stripe-webhooks-support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true', STRIPE_WEBHOOK_SECRET: SECRET }, clock: () => NOW });

describe(`Stripe webhooks and 3-D Secure (${DIALECT})`, () => {
  it('a challenge the cardholder passed but the partner never continued: the event continues it, once', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const started = (await purchase(t, purchaseBody(quote, CARDS.threeDsChallenge))).json<PurchaseAnswer>();
    expect(started.paymentResult).toBe('THREEDS_CHALLENGE_REQUIRED');
    await answerChallenge(t, started.threeDSResponseInfo!.threeDSResponse!, 'approve');
    const pending = await purchaseOf(t, quote.id);
    expect(pending.state).toBe('CHALLENGE_PENDING');
    const amountMinor = Math.round(quote.totalPrice * 100);
    const event = stripeEvent(
      'payment_intent.amount_capturable_updated',
      paymentIntent(pending.paymentId!, 'requires_capture', amountMinor),
      NOW,
    );
    await deliver(t, event);
    expect(await settled(t, event.id)).toMatchObject({ state: 'DONE', outcome: expect.stringContaining('→ CAPTURED') });
    const bought = await purchaseOf(t, quote.id);
    expect(bought.state).toBe('CAPTURED');
    // The partner continues late: answered from the record, nothing moves again.
    const late = await purchase(
      t,
      purchaseBody(quote, CARDS.threeDsChallenge, {
        threeDSRequestInfo: {
          threeDSStatus: 'CHALLENGE_COMPLETED',
          threeDSRequest: started.threeDSResponseInfo!.threeDSResponse,
        },
      }),
    );
    expect(late.statusCode, late.body).toBeLessThan(500);
    await deliver(
      t,
      stripeEvent('payment_intent.succeeded', paymentIntent(pending.paymentId!, 'succeeded', amountMinor), NOW),
    );
    expect(await books(t, quote.id)).toMatchObject({ policies: 1, captures: 1, capturedMinor: amountMinor });
    expect(await capturedEvents(t, bought.policyNumber!)).toBe(1);
  });

  it('a challenge the cardholder failed: payment_failed ends the attempt through the flow (declined, quote free)', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const started = (await purchase(t, purchaseBody(quote, CARDS.threeDsChallenge))).json<PurchaseAnswer>();
    await answerChallenge(t, started.threeDSResponseInfo!.threeDSResponse!, 'decline');
    const pending = await purchaseOf(t, quote.id);
    const event = stripeEvent(
      'payment_intent.payment_failed',
      paymentIntent(pending.paymentId!, 'requires_payment_method', 1),
      NOW,
    );
    await deliver(t, event);
    await settled(t, event.id);
    expect(await purchaseOf(t, quote.id)).toMatchObject({ state: 'DECLINED' });
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0 });
  });
});

describe('Stripe webhook configuration', () => {
  it('answers 503 while no secret is configured, and records nothing', async () => {
    const t = await buildTestApp({ clock: () => NOW });
    try {
      const res = await deliver(t, stripeEvent('payment_intent.succeeded', paymentIntent('pi_x', 'succeeded', 1), NOW));
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ validation: { errors: [{ code: 'STRIPE_WEBHOOKS_NOT_CONFIGURED' }] } });
      expect(await t.context.db.selectFrom('stripe_event').select('id').execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('reads the secret from a file; refuses both at once or an unreadable file, never printing the value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-secret-'));
    try {
      const file = join(dir, 'secret');
      writeFileSync(file, `${SECRET}\n`);
      expect(loadConfig({ STRIPE_WEBHOOK_SECRET_FILE: file }).stripeWebhooks).toEqual({
        secret: SECRET,
        toleranceSeconds: 300,
      });
      expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET_FILE: file, STRIPE_WEBHOOK_SECRET: SECRET })).toThrow(
        /STRIPE_WEBHOOK_SECRET_FILE: set together with STRIPE_WEBHOOK_SECRET; set one/,
      );
      const missing = () => loadConfig({ STRIPE_WEBHOOK_SECRET_FILE: join(dir, 'absent') });
      expect(missing).toThrow(/STRIPE_WEBHOOK_SECRET_FILE: cannot be read/);
      expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET_FILE: file, STRIPE_WEBHOOK_SECRET: SECRET })).not.toThrow(
        new RegExp(SECRET),
      );
      expect(loadConfig({}).stripeWebhooks).toEqual({ toleranceSeconds: 300 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
