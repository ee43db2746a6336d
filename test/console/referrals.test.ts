import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { signInAs } from '../helpers/console.js';
import { DIALECT } from '../helpers/database.js';
import { NOW } from '../purchases/support.js';
import { referralIdOf, referredQuote } from '../referrals/support.js';

// Issue 31: the referral queue and a referral's page in the console (inject; the Chromium walk is
// test/console/walk.browser.test.ts).
describe(`the console's referrals (${DIALECT})`, () => {
  const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

  it('lists an open referral oldest first, filters by brand and reason, and opens it', async () => {
    const t = getApp();
    const { id } = await referredQuote(t);
    const referralId = await referralIdOf(t, id);
    const reader = await signInAs(t, 'READ_ONLY');
    const queue = await reader.get('/console/referrals');
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain(`/console/referrals/${referralId}`);
    expect(queue.body).toContain('DESTINATION_WATCHED');
    expect((await reader.get('/console/referrals?brand=brandnz')).body).not.toContain(referralId);
    expect((await reader.get('/console/referrals?reason=DESTINATION_WATCHED')).body).toContain(referralId);
    expect((await reader.get('/console/referrals?olderThanHours=48')).body).not.toContain(referralId);
    const page = await reader.get(`/console/referrals/${referralId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('REFERRED');
    // A reader sees no decision forms.
    expect(page.body).not.toContain('/approve"');
  });

  it('an underwriter approves with a loading; the quote shows it; a second decision is refused in words', async () => {
    const t = getApp();
    const { id, get, price } = await referredQuote(t);
    const referralId = await referralIdOf(t, id);
    const underwriter = await signInAs(t, 'UNDERWRITER');
    const page = await underwriter.get(`/console/referrals/${referralId}`);
    expect(page.body).toContain('/approve"');
    const approved = await underwriter.post(`/console/referrals/${referralId}/approve`, {
      loadingPercentage: '10',
      extraExcess: '100',
      reason: 'Known destination, experienced traveller',
    });
    expect(approved.statusCode).toBe(303);
    const quote = await get();
    expect(quote.referral?.status).toBe('APPROVED');
    expect(quote.referral?.loadingPercentage).toBe(10);
    const total = quote.prices.find((p) => p.totalPrice > price);
    expect(total).toBeDefined();
    const again = await underwriter.post(`/console/referrals/${referralId}/decline`, { reason: 'changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('APPROVED already');
    const history = await underwriter.get(`/console/referrals/${referralId}`);
    expect(history.body).toContain('referral.approve');
    expect(history.body).toContain('Known destination, experienced traveller');
  });

  it('refuses a decision out of range by its field, and support may not decide', async () => {
    const t = getApp();
    const { id } = await referredQuote(t);
    const referralId = await referralIdOf(t, id);
    const underwriter = await signInAs(t, 'UNDERWRITER');
    const wrong = await underwriter.post(`/console/referrals/${referralId}/approve`, {
      loadingPercentage: '900',
      reason: 'x',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('loadingPercentage');
    const support = await signInAs(t, 'SUPPORT');
    const refused = await support.post(`/console/referrals/${referralId}/decline`, { reason: 'no' });
    expect(refused.statusCode).toBe(403);
    const info = await underwriter.post(`/console/referrals/${referralId}/request-information`, {
      question: 'What is the purpose of the trip?',
    });
    expect(info.statusCode).toBe(303);
    expect((await underwriter.get(`/console/referrals/${referralId}`)).body).toContain(
      'What is the purpose of the trip?',
    );
  });
});
