import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import {
  books,
  CARDS,
  detailedTrip,
  NOW,
  planOf,
  purchase,
  purchaseBody,
  type PurchaseAnswer,
} from '../purchases/support.js';
import { publishEvents, wholeFeed } from '../events/support.js';
import { actionsOnSubject } from '../../src/operators/audit-repository.js';
import { approveReferral, declineReferral, requestInformation } from '../../src/referrals/decisions.js';
import {
  ReferralAlreadyDecided,
  ReferralChanged,
  ReferralNotAllowed,
  SecondApproverRequired,
} from '../../src/referrals/errors.js';
import { referralDetail, referralQueue } from '../../src/referrals/queue.js';
import { screeningsFor } from '../../src/quotes/live-ports.js';
import {
  decisionDeps,
  referralIdOf,
  referredQuote,
  SENIOR,
  SENIOR_TWO,
  SUPPORT,
  UNDERWRITER,
  type ReferralAnswer,
} from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

async function purchaseRows(quoteId: string) {
  const { db } = getApp().context;
  return (await db.selectFrom('purchase').select('public_id').where('quote_id', '=', quoteId).execute()).length;
}

describe(`referrals (${DIALECT})`, () => {
  it('refers a quote a rule fires on: the quote shows it and its purchase is refused before any money moves', async () => {
    const t = getApp();
    const quote = await referredQuote(t);
    expect(quote.quote.referral).toMatchObject({ status: 'REFERRED', reasonCodes: ['DESTINATION_WATCHED'] });
    expect((await quote.get()).referral).toMatchObject({ status: 'REFERRED', referredAt: NOW.toISOString() });
    const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
    expect(res.statusCode).toBe(409);
    expect(res.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]?.code).toBe(
      'QUOTE_REFERRED',
    );
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0, authorisations: 0 });
    expect(await purchaseRows(quote.id)).toBe(0);
    // An ordinary trip is not referred.
    const plain = await referredQuote(t, ['IDN']);
    expect(plain.quote.referral).toBeUndefined();
  });

  it('an approval with a loading reprices the quote; the purchase sells it as Authorised with the extra excess', async () => {
    const t = getApp();
    const quote = await referredQuote(t);
    const id = await referralIdOf(t, quote.id);
    const result = await approveReferral(decisionDeps(t), UNDERWRITER, id, {
      loadingPercentage: 10,
      extraExcess: 100,
      reason: 'Itinerary checked with the partner.',
    });
    expect(result.outcome).toBe('APPROVED');
    const approved = await quote.get();
    expect(approved.referral).toMatchObject({
      status: 'APPROVED',
      loadingPercentage: 10,
      extraExcess: 100,
      decidedAt: NOW.toISOString(),
    } satisfies Partial<ReferralAnswer>);
    const price = approved.prices.find((p) => p.planId === quote.plan.planId);
    const loading = price?.basicOptionPrices?.find((o) => o.optionType === 'UNDERWRITING_LOADING');
    expect(loading?.price).toBeGreaterThan(0);
    expect(price?.totalPrice).toBeGreaterThan(quote.price);
    // A PUT that changes nothing judged keeps the approval and its loading.
    const again = await quote.put({ policyHolders: quote.input.policyHolders });
    expect(again.referral?.status).toBe('APPROVED');
    expect(again.prices.find((p) => p.planId === quote.plan.planId)?.totalPrice).toBe(price?.totalPrice);

    const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
    expect(res.statusCode, res.body).toBe(200);
    const sold = res.json<PurchaseAnswer>();
    expect(sold.quote.policyNumber).toBeDefined();
    expect((await books(t, quote.id)).capturedMinor).toBe(Math.round((price?.totalPrice ?? 0) * 100));
    const details = await t.app.inject({
      method: 'GET',
      url: `/policies/v1/brandau/policies/${sold.quote.policyNumber}`,
      headers: await bearerFor(t, 'brandau', 'A'),
    });
    expect(details.statusCode, details.body).toBe(200);
    expect(details.json()).toMatchObject({ detailStatusId: 3, detailStatus: 'Authorised' });
    const header = await t.context.db
      .selectFrom('policy_header')
      .select('excess_minor')
      .where('policy_number', '=', sold.quote.policyNumber!)
      .executeTakeFirstOrThrow();
    const standard = approved.prices.find((p) => p.planId === quote.plan.planId) as { standardExcess?: number };
    expect(header.excess_minor).toBe(Math.round((standard.standardExcess ?? 0) * 100) + 10_000);
    const audit = await actionsOnSubject(t.context.db, 'referral', id);
    expect(audit.map((a) => [a.action, a.operatorId, a.reason])).toEqual([
      ['referral.approve', UNDERWRITER.id, 'Itinerary checked with the partner.'],
    ]);
  });

  it('a decline is told by quote.referral_declined in the feed (reason codes only) and refuses the purchase', async () => {
    const t = getApp();
    const quote = await referredQuote(t);
    const id = await referralIdOf(t, quote.id);
    await declineReferral(decisionDeps(t), UNDERWRITER, id, { reason: 'Outside appetite.' });
    expect((await quote.get()).referral).toMatchObject({ status: 'DECLINED', declineReason: 'Outside appetite.' });
    const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
    expect(res.statusCode).toBe(409);
    expect(res.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]?.code).toBe(
      'QUOTE_REFERRAL_DECLINED',
    );
    await publishEvents(t);
    const events = (await wholeFeed(t)).filter((e) => e.data.quoteId === quote.id);
    expect(events.map((e) => e.type)).toEqual(['quote.referred', 'quote.referral_declined']);
    expect(events[1]?.data).toMatchObject({ referralStatus: 'DECLINED', reasonCodes: ['DESTINATION_WATCHED'] });
    expect(JSON.stringify(events)).not.toContain('Outside appetite');
    await expect(declineReferral(decisionDeps(t), UNDERWRITER, id, { reason: 'again' })).rejects.toBeInstanceOf(
      ReferralAlreadyDecided,
    );
  });

  it('asks for information (event, quote shows the question), and the partner may withdraw', async () => {
    const t = getApp();
    const quote = await referredQuote(t);
    const id = await referralIdOf(t, quote.id);
    await requestInformation(decisionDeps(t), UNDERWRITER, id, { question: 'Which cities will the travellers visit?' });
    expect((await quote.get()).referral).toMatchObject({
      status: 'INFORMATION_REQUESTED',
      informationRequested: 'Which cities will the travellers visit?',
    });
    const url = `/quotes/v2/brandau/quote/${quote.id}/referral/withdraw`;
    const other = await t.app.inject({ method: 'POST', url, headers: await bearerFor(t, 'brandau', 'B') });
    expect(other.statusCode).toBe(404);
    const withdrawn = await t.app.inject({ method: 'POST', url, headers: await bearerFor(t, 'brandau', 'A') });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json<ReferralAnswer>().status).toBe('WITHDRAWN');
    const twice = await t.app.inject({ method: 'POST', url, headers: await bearerFor(t, 'brandau', 'A') });
    expect(twice.statusCode).toBe(409);
    const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
    expect(res.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]?.code).toBe(
      'QUOTE_REFERRAL_WITHDRAWN',
    );
    await expect(
      approveReferral(decisionDeps(t), UNDERWRITER, id, { loadingPercentage: 0, extraExcess: 0, reason: 'late' }),
    ).rejects.toBeInstanceOf(ReferralAlreadyDecided);
    await publishEvents(t);
    const types = (await wholeFeed(t)).filter((e) => e.data.quoteId === quote.id).map((e) => e.type);
    expect(types).toEqual(['quote.referred', 'quote.information_requested']);
  });

  it('refers an approved quote again when a change still fires a rule; drops a waiting one no rule fires on', async () => {
    const t = getApp();
    const quote = await referredQuote(t);
    const id = await referralIdOf(t, quote.id);
    await approveReferral(decisionDeps(t), UNDERWRITER, id, { loadingPercentage: 0, extraExcess: 0, reason: 'ok' });
    const changed = await quote.put({ returnDate: '2026-12-27' });
    expect(changed.referral).toMatchObject({ status: 'REFERRED', reasonCodes: ['DESTINATION_WATCHED'] });
    expect(changed.referral?.decidedAt).toBeUndefined();
    const elsewhere = await quote.put({ returnDate: '2026-12-27', destinationCountryCodes: ['IDN'] });
    expect(elsewhere.referral).toBeUndefined();
    const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PurchaseAnswer>().quote.isPurchased).toBe(true);
  });

  it("checks the operator's authority: the brand limit, and two different seniors above the threshold", async () => {
    const t = getApp();
    const quote = await referredQuote(t);
    const id = await referralIdOf(t, quote.id);
    const deps = decisionDeps(t);
    // brandau: underwriters up to 800 AUD, a second approval above 1500 AUD (referrals.yaml).
    const percentFor = (target: number) => Math.ceil(((target - quote.price) / quote.price) * 100);
    const aboveLimit = percentFor(1000);
    const aboveSecond = percentFor(2000);
    expect(aboveLimit).toBeGreaterThan(0);
    expect(aboveSecond).toBeLessThanOrEqual(500);
    await expect(
      approveReferral(deps, SUPPORT, id, { loadingPercentage: 0, extraExcess: 0, reason: 'x' }),
    ).rejects.toBeInstanceOf(ReferralNotAllowed);
    await expect(
      approveReferral(deps, UNDERWRITER, id, { loadingPercentage: aboveLimit, extraExcess: 0, reason: 'x' }),
    ).rejects.toBeInstanceOf(ReferralNotAllowed);
    const terms = { loadingPercentage: aboveSecond, extraExcess: 250, reason: 'Big trip, big loading.' };
    expect((await approveReferral(deps, SENIOR, id, terms)).outcome).toBe('AWAITING_SECOND_APPROVAL');
    expect((await quote.get()).referral?.status).toBe('REFERRED');
    await expect(approveReferral(deps, SENIOR, id, terms)).rejects.toBeInstanceOf(SecondApproverRequired);
    expect((await approveReferral(deps, SENIOR_TWO, id, terms)).outcome).toBe('APPROVED');
    const approved = await quote.get();
    expect(approved.referral).toMatchObject({ status: 'APPROVED', loadingPercentage: aboveSecond, extraExcess: 250 });
    expect(approved.prices.find((p) => p.planId === quote.plan.planId)?.totalPrice).toBeGreaterThan(1500);
    const audit = await actionsOnSubject(t.context.db, 'referral', id);
    expect(audit.map((a) => [a.action, a.operatorId])).toEqual([
      ['referral.approve_first', SENIOR.id],
      ['referral.approve', SENIOR_TWO.id],
    ]);
  });

  it('of concurrent decisions only one wins', async () => {
    const t = getApp();
    const quote = await referredQuote(t);
    const id = await referralIdOf(t, quote.id);
    const deps = decisionDeps(t);
    const outcomes = await Promise.allSettled([
      approveReferral(deps, UNDERWRITER, id, { loadingPercentage: 5, extraExcess: 0, reason: 'yes' }),
      declineReferral(deps, SENIOR, id, { reason: 'no' }),
      declineReferral(deps, UNDERWRITER, id, { reason: 'no, twice' }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === 'rejected'))
      expect(o.reason instanceof ReferralAlreadyDecided || o.reason instanceof ReferralChanged, String(o.reason)).toBe(
        true,
      );
    expect(await actionsOnSubject(t.context.db, 'referral', id)).toHaveLength(1);
    await publishEvents(t);
    const decided = (await wholeFeed(t)).filter((e) => e.data.quoteId === quote.id && e.type !== 'quote.referred');
    expect(decided).toHaveLength(1);
  });

  it('the queue lists open referrals oldest first with filters; the detail names the rules that fired', async () => {
    const t = getApp();
    const quote = await referredQuote(t, ['NGA']);
    const id = await referralIdOf(t, quote.id);
    const deps = { db: t.context.db, clock: t.context.clock };
    const queue = await referralQueue(
      deps,
      { brandCode: 'brandau', reasonCode: 'DESTINATION_WATCHED' },
      { limit: 100 },
    );
    expect(queue.map((r) => r.id)).toContain(id);
    const referredAts = queue.map((r) => r.referredAt);
    expect([...referredAts].sort()).toEqual(referredAts);
    expect(await referralQueue(deps, { reasonCode: 'TRAVELLER_AGE_HIGH' }, { limit: 100 })).toEqual([]);
    expect(await referralQueue(deps, { olderThanHours: 1 }, { limit: 100 })).toEqual([]);
    const detail = await referralDetail({ ...decisionDeps(t), screenings: screeningsFor(t.context) }, id);
    expect(detail.rules).toEqual([
      expect.objectContaining({ kind: 'DESTINATION_WATCH_LIST', reasonCode: 'DESTINATION_WATCHED' }),
    ]);
    expect(detail.quote?.id).toBe(quote.id);
    expect(detail.authority).toMatchObject({ currency: 'AUD', needsSenior: false });
  });

  it('refers a second Essentials policy for the same traveller over the same days (DUPLICATE_POLICY)', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau', 'A');
    const plan = await planOf(t, 'brandau', 'ESSE');
    const input = { ...detailedTrip(plan.planId), departureDate: '2027-01-10', returnDate: '2027-01-20' };
    const quoteOf = async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/quotes/v2/brandau/quote',
        headers,
        payload: { input },
      });
      const id = created.json<{ id: string }>().id;
      const put = await t.app.inject({
        method: 'PUT',
        url: `/quotes/v2/brandau/quote/${id}`,
        headers,
        payload: { stage: 'DETAILS', input },
      });
      expect(put.statusCode, put.body).toBe(200);
      return { id, answer: put.json<{ referral?: ReferralAnswer }>() };
    };
    const first = await quoteOf();
    expect(first.answer.referral).toBeUndefined();
    const bought = await purchase(t, purchaseBody({ id: first.id, termIds: plan.termIds }, CARDS.approved));
    expect(bought.json<PurchaseAnswer>().quote.isPurchased, bought.body).toBe(true);
    const second = await quoteOf();
    expect(second.answer.referral).toMatchObject({ status: 'REFERRED', reasonCodes: ['DUPLICATE_POLICY'] });
  });
});
