import { describe, expect, it } from 'vitest';
import type { ServicingRules } from '../catalogue/model.js';
import { priceQuote } from '../pricing/engine.js';
import { baliRequest } from '../pricing/fixtures/requests.js';
import { MEDICAL_OPTION_TYPE } from '../pricing/medical.js';
import type { PricingRequest } from '../pricing/request.js';
import { screened } from '../../test/screening/screened.js';
import { partsOf } from './parts.js';
import { cancellationTerms, type CancellationFacts } from './rules.js';

const RULES: ServicingRules = {
  coolingOffDays: 21,
  cancellation: { beforeDeparture: 'PRO_RATA', afterDeparture: 'PRO_RATA', feeMinor: 0 },
  amendment: {
    feeMinor: 0,
    beforeDeparture: { dates: true, destinations: true, travellers: true, options: true },
    afterDeparture: { extendReturnDate: true },
  },
};

/** What a policy bought at this price has paid, as the purchase records it (premium before discounts). */
function paidFor(request: PricingRequest) {
  const outcome = priceQuote({ ...request, planCodes: ['COMPREHENSIVE'] })[0];
  if (outcome?.outcome !== 'PRICED') throw new Error('not priced');
  const s = outcome.summary;
  const taxes = s.basePrice.taxComponents.map((t) => ({ name: t.taxName, amount: t.taxAmount }));
  const discount = s.campaignDiscount + s.partnerDiscount;
  const taxTotal = taxes.reduce((sum, t) => sum + t.amount, 0);
  const paid = partsOf({ premium: s.totalPrice - taxTotal + discount, discount, taxes, donation: 0, fees: [] });
  return { paid, summary: s };
}

const facts = (paid: CancellationFacts['paid'], today: string): CancellationFacts => ({
  issuedAt: '2026-03-01T13:30:00.000Z',
  zone: 'Australia/Sydney',
  today,
  effectiveDate: today,
  departureDate: '2026-04-10',
  coverEndDate: '2026-04-23',
  paid,
});

describe('a cancellation refunds the medical premium like the rest (real engine assessment)', () => {
  it('in cooling-off refunds it in full; after it, pro rata with the rest of the premium', async () => {
    const assessment = (await screened('adult-1', ['TEST_COVERED'])).assessment;
    const premium = assessment?.medicalPremiumMinor ?? 0;
    expect(premium).toBe(6000);
    const plain = paidFor(baliRequest());
    const medical = paidFor(
      baliRequest({ medicalPremiums: [{ planCode: 'COMPREHENSIVE', travellerGuid: 'adult-1', premium }] }),
    );
    expect(medical.summary.basicOptionPrices.some((o) => o.optionType === MEDICAL_OPTION_TYPE)).toBe(true);
    expect(medical.paid.premium - plain.paid.premium).toBe(premium);

    const coolingOff = cancellationTerms(RULES, facts(medical.paid, '2026-03-10'));
    expect(coolingOff.basis).toBe('COOLING_OFF');
    expect(-coolingOff.refund.total).toBe(medical.summary.totalPrice);

    const later = (paid: CancellationFacts['paid']) =>
      -cancellationTerms(RULES, facts(paid, '2026-03-30')).refund.total;
    // Before departure, after cooling-off, no cover used: the whole paid premium (medical included) comes back.
    expect(later(medical.paid) - later(plain.paid)).toBe(medical.summary.totalPrice - plain.summary.totalPrice);
    expect(later(medical.paid) - later(plain.paid)).toBeGreaterThanOrEqual(premium);
  });
});
