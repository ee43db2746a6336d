import { describe, expect, it } from 'vitest';
import { applyAuthorisation } from '../../src/purchases/flow.js';
import { gatewayKey } from '../../src/purchases/model.js';
import { recoverPurchases } from '../../src/purchases/recovery.js';
import { moveState } from '../../src/purchases/repository.js';
import type { TestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { books, CARDS, NOW } from './support.js';
import { buyDirectly, dyingAfter, later, purchaseOf, recoveryDeps as deps } from './recovery-support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });
const counters = (t: TestApp) =>
  t.context.db
    .selectFrom('policy_number_counter')
    .selectAll()
    .orderBy('prefix')
    .orderBy('country')
    .orderBy('year')
    .execute();

describe(`purchase recovery (${DIALECT})`, () => {
  it('STARTED after the gateway authorised (the answer was lost): left alone within the grace period, then replayed, issued and captured once', async () => {
    const t = getApp();
    const { quoteId, totalPrice } = await buyDirectly(t, dyingAfter(t, 'authorise'));
    expect((await purchaseOf(t, quoteId)).state).toBe('STARTED');
    expect(await books(t, quoteId)).toMatchObject({ policies: 0, captures: 0, authorisations: 1 });

    const early = await recoverPurchases(deps(t, undefined, later(10)), { graceSeconds: 60 });
    expect(early.examined).toEqual({});
    const report = await recoverPurchases(deps(t, undefined, later(61)), { graceSeconds: 60 });
    expect(report).toMatchObject({ examined: { STARTED: 1 }, outcomes: { CAPTURED: 1 }, failures: 0 });
    expect(await books(t, quoteId)).toMatchObject({
      policies: 1,
      captures: 1,
      capturedMinor: Math.round(totalPrice * 100),
    });
    // Running it again changes nothing.
    expect((await recoverPurchases(deps(t, undefined, later(120)), { graceSeconds: 60 })).examined).toEqual({});
  });

  it('AUTHORISED without a policy (killed before issuing): recovery issues, then captures', async () => {
    const t = getApp();
    const { quoteId } = await buyDirectly(t, dyingAfter(t, 'authorise'));
    const started = await purchaseOf(t, quoteId);
    const payment = await t.context.db
      .selectFrom('sandbox_payment')
      .select('payment_id')
      .where('reference', '=', started.id)
      .executeTakeFirstOrThrow();
    // Exactly what the request had recorded when it died after authorise.
    await moveState(
      t.context.db,
      started,
      ['STARTED'],
      'AUTHORISED',
      { paymentId: payment.payment_id, paymentResult: 'APPROVED' },
      NOW.toISOString(),
    );
    const report = await recoverPurchases(deps(t, undefined, later(1)), { graceSeconds: 0 });
    expect(report.outcomes).toEqual({ CAPTURED: 1 });
    expect(await books(t, quoteId)).toMatchObject({ policies: 1, captures: 1 });
    const quote = await t.context.db
      .selectFrom('quote')
      .select(['is_purchased', 'policy_number'])
      .where('public_id', '=', quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.is_purchased).toBe(1);
    expect((await purchaseOf(t, quoteId)).policyNumber).toBe(quote.policy_number);
  });

  it('ISSUED but not captured (killed after issuing): recovery captures once', async () => {
    const t = getApp();
    const { quoteId } = await buyDirectly(t, dyingAfter(t, 'capture'));
    // The capture reached the gateway before the crash: the replayed key must not charge again.
    expect((await purchaseOf(t, quoteId)).state).toBe('ISSUED');
    await recoverPurchases(deps(t, undefined, later(1)), { graceSeconds: 0 });
    expect((await purchaseOf(t, quoteId)).state).toBe('CAPTURED');
    expect(await books(t, quoteId)).toMatchObject({ policies: 1, captures: 1 });
  });

  it('AUTHORISED but the policy can no longer be issued: the hold is voided and the quote released', async () => {
    const t = getApp();
    const { quoteId } = await buyDirectly(t, dyingAfter(t, 'authorise'));
    const started = await purchaseOf(t, quoteId);
    const payment = await t.context.db
      .selectFrom('sandbox_payment')
      .select('payment_id')
      .where('reference', '=', started.id)
      .executeTakeFirstOrThrow();
    await moveState(
      t.context.db,
      started,
      ['STARTED'],
      'AUTHORISED',
      { paymentId: payment.payment_id },
      NOW.toISOString(),
    );
    const broken = { ...started.issueRequest, presentationTimeZoneCode: 'Not/AZone' };
    await t.context.db
      .updateTable('purchase')
      .set({ issue_request_json: JSON.stringify(broken) })
      .where('public_id', '=', started.id)
      .execute();
    expect((await recoverPurchases(deps(t, undefined, later(1)), { graceSeconds: 0 })).outcomes).toEqual({ VOIDED: 1 });
    const sandbox = await t.context.db
      .selectFrom('sandbox_payment')
      .select(['status', 'captured_minor'])
      .where('payment_id', '=', payment.payment_id)
      .executeTakeFirstOrThrow();
    expect(sandbox).toEqual({ status: 'voided', captured_minor: 0 });
    const quote = await t.context.db
      .selectFrom('quote')
      .select(['is_purchased', 'is_purchase_initiated'])
      .where('public_id', '=', quoteId)
      .executeTakeFirstOrThrow();
    expect(quote).toEqual({ is_purchased: 0, is_purchase_initiated: 0 });
    expect(await books(t, quoteId)).toMatchObject({ policies: 0, captures: 0 });
  });

  it('approved, but the policy cannot be issued (request path): nothing of the issue is written, the approval is recorded, the hold voided, the quote released', async () => {
    const t = getApp();
    const before = await counters(t);
    // A purchase the gateway has just approved (as purchaseQuote hands it on), whose issue request
    // cannot become a policy: the request path issues from the request it holds.
    const { quoteId } = await buyDirectly(t, dyingAfter(t, 'authorise'));
    const started = await purchaseOf(t, quoteId);
    const approved = await t.app.paymentGateway.authorise({
      idempotencyKey: gatewayKey(started, 'authorise'),
      amount: { amountMinor: started.amountMinor, currency: started.currency },
      cardToken: started.cardToken,
      reference: started.id,
    });
    expect(approved.outcome).toBe('approved');
    const unissuable = { ...started, issueRequest: { ...started.issueRequest, presentationTimeZoneCode: 'Not/AZone' } };
    await applyAuthorisation(deps(t), unissuable, approved);
    const purchase = await purchaseOf(t, quoteId);
    expect(purchase).toMatchObject({ state: 'VOIDED', paymentResult: 'APPROVED' });
    expect(purchase.paymentId).toMatch(/^sbx_pay_/);
    const sandbox = await t.context.db
      .selectFrom('sandbox_payment')
      .select(['status', 'captured_minor'])
      .where('payment_id', '=', purchase.paymentId!)
      .executeTakeFirstOrThrow();
    expect(sandbox).toEqual({ status: 'voided', captured_minor: 0 });
    const quote = await t.context.db
      .selectFrom('quote')
      .select(['is_purchased', 'is_purchase_initiated', 'policy_number'])
      .where('public_id', '=', quoteId)
      .executeTakeFirstOrThrow();
    expect(quote).toEqual({ is_purchased: 0, is_purchase_initiated: 0, policy_number: null });
    expect(await books(t, quoteId)).toMatchObject({ policies: 0, captures: 0 });
    // Nothing of the issue stays: no policy, no number taken from the series.
    expect(await counters(t)).toEqual(before);
  });

  it('a 3-D Secure challenge nobody completed: FAILED once expired, quote released', async () => {
    const t = getApp();
    const { quoteId } = await buyDirectly(t, t.app.paymentGateway, CARDS.threeDsChallenge);
    expect((await purchaseOf(t, quoteId)).state).toBe('CHALLENGE_PENDING');
    expect((await recoverPurchases(deps(t, undefined, later(60)), { graceSeconds: 0 })).examined).toEqual({});
    expect((await recoverPurchases(deps(t, undefined, later(16 * 60)), { graceSeconds: 0 })).outcomes).toEqual({
      FAILED: 1,
    });
    const purchase = await purchaseOf(t, quoteId);
    expect(purchase).toMatchObject({ state: 'FAILED', declineReason: 'THREEDS_CHALLENGE_EXPIRED' });
    const quote = await t.context.db
      .selectFrom('quote')
      .select('is_purchase_initiated')
      .where('public_id', '=', quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.is_purchase_initiated).toBe(0);
  });
});
