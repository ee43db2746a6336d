import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { books, CARDS, NOW, purchase, purchaseBody, type PurchaseAnswer } from '../purchases/support.js';
import { certificateText, medicalLines, policyTravellers, screenedQuote, type QuoteAnswer } from './quote-walk.js';
import { walk } from './support.js';

// The whole path on the running app's own ports: the stored catalogue's engine, the screening
// service behind the quote and the purchase (no injected screenings).
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`medical screening from quote to policy (${DIALECT})`, () => {
  it('prices a covered condition into the quote, sells it and shows the screening on the policy', async () => {
    const t = getApp();
    const quote = await screenedQuote(t);
    expect(quote.waiting.stage).toBe('DETAILS');
    expect(quote.waiting.validation.errors.map((e) => e.code)).toContain('SCREENING_REQUIRED');
    const screening = await walk(t, quote.id, ['TEST_COVERED']);
    const refreshed = await quote.refresh();
    expect(refreshed.stage).toBe('MEDICAL_SCREENING');
    expect(medicalLines(refreshed, quote.plan.planId)).toEqual([
      expect.objectContaining({ policyHolderGuid: 'adult-1', saleListPrice: 60 }),
    ]);
    const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
    const sold = res.json<PurchaseAnswer>();
    expect(sold.quote.policyNumber).toBeDefined();
    const travellers = await policyTravellers(t, sold.quote.policyNumber!);
    expect(travellers.find((p) => p.guid === 'adult-1')?.travelClear).toMatchObject({
      tamisReferenceNumber: screening.result?.tamisReferenceNumber,
      isCovered: true,
    });
    // The certificate names the condition, its outcome and its loading.
    const text = await certificateText(t, sold.quote.policyNumber!);
    expect(text).toContain(`Ada Lovelace: medical screening ${screening.result?.tamisReferenceNumber}`);
    expect(text).toContain(
      'Test: covered with a premium: covered (medical premium $60.00 AUD, extra excess $100.00 AUD)',
    );
  });

  it('holds a referred traveller: the quote is referred (MEDICAL_REFERRED) and its purchase refused before any money moves', async () => {
    const t = getApp();
    const quote = await screenedQuote(t);
    await walk(t, quote.id, ['TEST_REFERRED']);
    const refreshed = (await quote.refresh()) as QuoteAnswer & { referral?: { status: string; reasonCodes: string[] } };
    expect(refreshed.referral).toMatchObject({ status: 'REFERRED', reasonCodes: ['MEDICAL_REFERRED'] });
    const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
    expect(res.statusCode).toBe(409);
    const body = res.json<PurchaseAnswer>();
    expect(body.validation.errors.map((e) => e.code)).toEqual(['QUOTE_REFERRED']);
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0, authorisations: 0 });
  });

  it('makes the screening stale when the trip changes, dropping the medical premium until re-screened', async () => {
    const t = getApp();
    const quote = await screenedQuote(t);
    await walk(t, quote.id, ['TEST_COVERED']);
    const changed = await quote.refresh({ ...quote.trip, destinationCountryCodes: ['USA'] });
    expect(changed.stage).toBe('DETAILS');
    expect(changed.validation.errors.map((e) => e.code)).toContain('SCREENING_STALE');
    expect(medicalLines(changed, quote.plan.planId)).toEqual([]);
    await walk(t, quote.id, ['TEST_COVERED']);
    expect((await quote.refresh({ ...quote.trip, destinationCountryCodes: ['USA'] })).stage).toBe('MEDICAL_SCREENING');
  });
});
