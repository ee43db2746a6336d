import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { signInAs } from '../helpers/console.js';
import { DIALECT } from '../helpers/database.js';
import { publishEvents, wholeFeed } from '../events/support.js';
import {
  boughtPolicy,
  call,
  CARDS,
  confirm,
  detailedTrip,
  details,
  moneyOf,
  NOW,
  previewAmendment,
  type ChangeAnswer,
  type ConfirmAnswer,
} from '../policy-changes/support.js';
import type { ReferralAnswer } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

type Preview = ChangeAnswer & { referral?: ReferralAnswer };

/** A policy bought, then an amendment to a watched destination (VEN) previewed: referred. */
async function referredAmendment(t: TestApp) {
  const { policyNumber, input } = await boughtPolicy(t);
  const res = await previewAmendment(t, policyNumber, { ...input, destinationCountryCodes: ['VEN'] });
  expect(res.statusCode, res.body).toBe(200);
  const preview = res.json<Preview>();
  expect(preview.validation.isValid, res.body).toBe(true);
  const row = await t.context.db
    .selectFrom('referral')
    .select(['public_id', 'status', 'quote_id', 'policy_number'])
    .where('policy_change_id', '=', preview.id!)
    .executeTakeFirstOrThrow();
  return { policyNumber, preview, referralId: row.public_id, row };
}

/** Nothing moved for a refused confirm: no payment, no transaction, the preview still a PREVIEW. */
async function expectNothingMoved(t: TestApp, policyNumber: string, amendmentId: string, payments: number) {
  expect((await moneyOf(t, policyNumber)).payments).toHaveLength(payments);
  expect(await details(t, policyNumber)).toHaveLength(1);
  const change = await t.context.db
    .selectFrom('policy_change')
    .select(['state', 'attempt'])
    .where('public_id', '=', amendmentId)
    .executeTakeFirstOrThrow();
  expect(change.state).toBe('PREVIEW');
}

describe(`referrals: amendments (${DIALECT})`, () => {
  it('an amendment a rule fires on is referred; confirmed only once approved in the console', async () => {
    const t = getApp();
    const { policyNumber, preview, referralId, row } = await referredAmendment(t);
    expect(preview.referral).toMatchObject({ status: 'REFERRED', reasonCodes: ['DESTINATION_WATCHED'] });
    expect(row).toMatchObject({ status: 'REFERRED', quote_id: null, policy_number: policyNumber });
    const paymentsBefore = (await moneyOf(t, policyNumber)).payments.length;

    const refused = await confirm(t, policyNumber, 'amendments', preview.id!, {
      key: 'amend-referred-1',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.body).toContain('AMENDMENT_REFERRED');
    await expectNothingMoved(t, policyNumber, preview.id!, paymentsBefore);

    const underwriter = await signInAs(t, 'SENIOR_UNDERWRITER');
    const queue = await underwriter.get('/console/referrals');
    expect(queue.body).toContain(`Amendment of ${policyNumber}`);
    const page = await underwriter.get(`/console/referrals/${referralId}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Destinations:');
    expect(page.body).toContain('VEN');
    const loaded = await underwriter.post(`/console/referrals/${referralId}/approve`, {
      loadingPercentage: '10',
      extraExcess: '0',
      reason: 'Loading asked',
    });
    expect(loaded.statusCode).toBe(400);
    expect(loaded.body).toContain('approved as previewed');
    const approved = await underwriter.post(`/console/referrals/${referralId}/approve`, {
      loadingPercentage: '0',
      extraExcess: '0',
      reason: 'Fine to travel',
    });
    expect(approved.statusCode, approved.body).toBe(303);

    const confirmed = await confirm(t, policyNumber, 'amendments', preview.id!, {
      key: 'amend-referred-2',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<ConfirmAnswer>().validation.isValid, confirmed.body).toBe(true);
    expect(confirmed.json<ConfirmAnswer>().policy.sequenceNumber).toBe(2);

    await publishEvents(t);
    const events = (await wholeFeed(t)).filter((e) => e.data.amendmentId === preview.id);
    expect(events.map((e) => e.type)).toEqual(['policy.amendment_referred', 'policy.amendment_referral_approved']);
    expect(events[0]?.data).toEqual({
      policyNumber,
      amendmentId: preview.id,
      brandCode: 'brandau',
      referralStatus: 'REFERRED',
      reasonCodes: ['DESTINATION_WATCHED'],
      referredAt: expect.any(String) as unknown,
    });
  });

  it('a declined amendment is refused with AMENDMENT_REFERRAL_DECLINED, money untouched', async () => {
    const t = getApp();
    const { policyNumber, preview, referralId } = await referredAmendment(t);
    const paymentsBefore = (await moneyOf(t, policyNumber)).payments.length;
    const underwriter = await signInAs(t, 'SENIOR_UNDERWRITER');
    const declined = await underwriter.post(`/console/referrals/${referralId}/decline`, { reason: 'Not covered' });
    expect(declined.statusCode, declined.body).toBe(303);
    const read = await call(t, 'GET', `/policies/v1/brandau/policies/${policyNumber}/amendments/${preview.id!}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<Preview>().referral).toMatchObject({ status: 'DECLINED', declineReason: 'Not covered' });
    const refused = await confirm(t, policyNumber, 'amendments', preview.id!, {
      key: 'amend-declined-1',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.body).toContain('AMENDMENT_REFERRAL_DECLINED');
    await expectNothingMoved(t, policyNumber, preview.id!, paymentsBefore);
    await publishEvents(t);
    const types = (await wholeFeed(t)).filter((e) => e.data.amendmentId === preview.id).map((e) => e.type);
    expect(types).toEqual(['policy.amendment_referred', 'policy.amendment_referral_declined']);
    // The underwriter's words stay out of the event.
    expect(JSON.stringify(await wholeFeed(t))).not.toContain('Not covered');
  });

  it('an amendment no rule fires on is not referred (its own policy is no duplicate of itself)', async () => {
    const t = getApp();
    // Travellers of their own: the other tests' policies are no duplicates of this one.
    const policyHolders = detailedTrip(0).policyHolders.map((h, i) => ({ ...h, lastName: `Lovelace${String(i)}` }));
    const { policyNumber, input } = await boughtPolicy(t, { plan: 'ESSE', input: { policyHolders } });
    const res = await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-22' });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<Preview>();
    expect(preview.validation.isValid, res.body).toBe(true);
    expect(preview.referral).toBeUndefined();
  });
});
