import { describe, expect, it } from 'vitest';
import { findPartner } from '../../src/auth/accounts.js';
import { catalogueOf } from '../../src/catalogue/service.js';
import { purchaseReferralsFor } from '../../src/purchases/deps.js';
import { everyRouteTo, type PaymentGateway } from '../../src/payments/gateway.js';
import { prepareIssue } from '../../src/policies/service.js';
import { issuePurchase, recordCapture, type PurchaseIssue } from '../../src/purchases/commits.js';
import type { Purchase } from '../../src/purchases/model.js';
import { findPurchaseOfQuote } from '../../src/purchases/repository.js';
import { purchaseQuote } from '../../src/purchases/service.js';
import type { TestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { CARDS, NOW, purchaseBody, readyQuote } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

class Stop extends Error {}

/** A STARTED purchase, its quote claimed, as a request holds it right after the gateway approved. */
async function startedPurchase(t: TestApp): Promise<Purchase> {
  const quote = await readyQuote(t);
  const partner = await findPartner(t.context, 'PARTNERA');
  const stopping: PaymentGateway = { ...t.app.paymentGateway, authorise: () => Promise.reject(new Stop()) };
  const call = {
    buyer: { userId: 1, partnerId: partner!.id, partnerCode: 'PARTNERA' },
    brandCode: 'brandau' as const,
    body: purchaseBody(quote, CARDS.approved),
    client: {},
  };
  await expect(
    purchaseQuote(
      {
        db: t.context.db,
        gateways: everyRouteTo(stopping),
        clock: () => NOW,
        catalogue: catalogueOf(t.context),
        screenings: { ofQuote: () => Promise.resolve([]) },
        referrals: purchaseReferralsFor(t.context),
      },
      call,
    ),
  ).rejects.toBeInstanceOf(Stop);
  const started = await findPurchaseOfQuote(t.context.db, quote.id, ['STARTED']);
  if (!started) throw new Error('no STARTED purchase');
  return started;
}

function issueOf(purchase: Purchase): PurchaseIssue {
  const patch = {
    paymentId: 'sbx_pay_test',
    paymentResult: 'APPROVED',
    threeDSStatus: 'NOT_REQUIRED',
    challenge: null,
    declineReason: null,
  };
  const request = { ...purchase.issueRequest, paymentReference: patch.paymentId };
  return {
    purchase,
    from: ['STARTED', 'CHALLENGE_PENDING'],
    patch,
    request,
    issue: prepareIssue(request, NOW),
    at: NOW.toISOString(),
  };
}

const written = async (t: TestApp, quoteId: string) => ({
  counters: await t.context.db
    .selectFrom('policy_number_counter')
    .select(['prefix', 'country', 'year', 'last_value'])
    .orderBy('id')
    .execute(),
  policies: (
    await t.context.db.selectFrom('policy_header').select('policy_number').where('quote_id', '=', quoteId).execute()
  ).length,
  quote: await t.context.db
    .selectFrom('quote')
    .select(['is_purchased', 'policy_number', 'revision'])
    .where('public_id', '=', quoteId)
    .executeTakeFirstOrThrow(),
  purchase: await t.context.db
    .selectFrom('purchase')
    .select(['state', 'payment_id', 'policy_number'])
    .where('quote_id', '=', quoteId)
    .executeTakeFirstOrThrow(),
});

describe(`the issuing commit of a purchase (${DIALECT})`, () => {
  it('writes the state with the approval, the policy under the next number and the bought quote together', async () => {
    const t = getApp();
    const purchase = await startedPurchase(t);
    const before = await written(t, purchase.quoteId);
    const outcome = await issuePurchase(t.context.db, issueOf(purchase));
    const after = await written(t, purchase.quoteId);
    expect(outcome.refused).toBeUndefined();
    const policyNumber = outcome.issued?.policyNumber;
    expect(policyNumber).toMatch(/^[A-Z]+\d+$/);
    expect(outcome.issued).toMatchObject({
      id: purchase.id,
      state: 'ISSUED',
      paymentId: 'sbx_pay_test',
      paymentResult: 'APPROVED',
      threeDSStatus: 'NOT_REQUIRED',
      updatedAt: NOW.toISOString(),
    });
    expect(outcome.issued?.issueRequest).toEqual(purchase.issueRequest);
    expect(outcome.quoteRevision).toBe(before.quote.revision + 1);
    expect(after).toMatchObject({
      policies: 1,
      quote: { is_purchased: 1, policy_number: policyNumber, revision: before.quote.revision + 1 },
      purchase: { state: 'ISSUED', payment_id: 'sbx_pay_test', policy_number: policyNumber },
    });
    expect(after.counters.reduce((sum, c) => sum + c.last_value, 0)).toBe(
      before.counters.reduce((sum, c) => sum + c.last_value, 0) + 1,
    );
  });

  it("holds the documents' e-mail until the capture's commit makes it due (payment.captured before documents.sent)", async () => {
    const t = getApp();
    const purchase = await startedPurchase(t);
    const issued = (await issuePurchase(t.context.db, issueOf(purchase))).issued!;
    const email = () =>
      t.context.db
        .selectFrom('outbox_message')
        .select(['state', 'next_attempt_at'])
        .where('message_key', '=', `policy-documents:${purchase.quoteId}:1`)
        .executeTakeFirstOrThrow();
    // Held a minute at most: a capture that never comes (a crash) does not keep it forever.
    expect(await email()).toEqual({
      state: 'PENDING',
      next_attempt_at: new Date(NOW.getTime() + 60_000).toISOString(),
    });
    const capturedAt = new Date(NOW.getTime() + 1500).toISOString();
    expect(await recordCapture(t.context.db, issued, capturedAt)).toMatchObject({ state: 'CAPTURED' });
    expect(await email()).toEqual({ state: 'PENDING', next_attempt_at: capturedAt });
  });

  it('writes nothing and takes no number when the purchase has moved on (another process issued it)', async () => {
    const t = getApp();
    const purchase = await startedPurchase(t);
    const unit = issueOf(purchase);
    expect((await issuePurchase(t.context.db, unit)).issued).toBeDefined();
    const before = await written(t, purchase.quoteId);
    expect(await issuePurchase(t.context.db, unit)).toEqual({ refused: 'overtaken' });
    expect(await written(t, purchase.quoteId)).toEqual(before);
  });

  it('writes nothing and takes no number when the quote was bought meanwhile', async () => {
    const t = getApp();
    const purchase = await startedPurchase(t);
    await t.context.db
      .updateTable('quote')
      .set({ is_purchased: 1 })
      .where('public_id', '=', purchase.quoteId)
      .execute();
    const before = await written(t, purchase.quoteId);
    expect(await issuePurchase(t.context.db, issueOf(purchase))).toEqual({ refused: 'quote-bought' });
    expect(await written(t, purchase.quoteId)).toEqual(before);
  });

  it('of two issuers racing for one purchase exactly one writes, and the number series stays gapless', async () => {
    const t = getApp();
    const purchases = await Promise.all(Array.from({ length: 4 }, () => startedPurchase(t)));
    const outcomes = await Promise.all(
      purchases.flatMap((purchase) =>
        [issueOf(purchase), issueOf(purchase)].map((unit) => issuePurchase(t.context.db, unit)),
      ),
    );
    expect(outcomes.filter((o) => o.issued).length).toBe(4);
    expect(outcomes.filter((o) => o.refused === 'overtaken').length).toBe(4);
    const numbers = outcomes
      .flatMap((o) => (o.issued?.policyNumber ? [Number(o.issued.policyNumber.replace(/^\D+\d{2}/, ''))] : []))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
  });
});
