import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { baliTrip, NOW } from './fixtures.js';
import { asPartner } from './partners.js';

// The bar, on the real demo catalogue and the real rating engine (no fixture ports).
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

interface Money {
  price: number;
}
interface Tax {
  taxName: string;
  taxAmount: number;
}
interface PriceSummary {
  totalPrice: number;
  basePrice: Money & { taxComponents: Tax[] };
  specifiedItemOptionPrice?: Money;
  adventureActivitiesOptionPrice?: Money;
  tripCancellationPrice?: Money;
  basicOptionPrices?: Money[];
}
interface QuoteBody {
  validation: { isValid: boolean; errors: { code: string; title: string; property: string }[] };
  prices: PriceSummary[];
  priceResults: { basePriceResult: { priceDetails: { age: number }[] } }[];
}

async function quote(input: object, brand: 'brandau' | 'nomad' = 'brandau'): Promise<QuoteBody> {
  const t = getApp();
  const res = await t.app.inject({
    method: 'POST',
    url: `/quotes/v2/${brand}/quote`,
    headers: await asPartner(t, brand, 'A'),
    payload: { input },
  });
  expect(res.statusCode).toBe(200);
  return res.json<QuoteBody>();
}

describe(`quotes priced from the demo catalogue (${DIALECT})`, () => {
  it('prices a two-adult, one-dependent, 14-day Bali trip from Sydney for every brandau single-trip plan, taxes itemised', async () => {
    const q = await quote(baliTrip());
    expect(q.validation).toEqual({ isValid: true, errors: [] });
    const codes = ['BASIC', 'COMP', 'ESSE'];
    expect(q.prices).toHaveLength(codes.length);
    for (const price of q.prices) {
      const taxes = price.basePrice.taxComponents;
      expect(taxes.map((t) => t.taxName)).toEqual([expect.stringMatching(/GST/), expect.stringMatching(/Stamp Duty/)]);
      const options = [
        price.specifiedItemOptionPrice,
        price.adventureActivitiesOptionPrice,
        price.tripCancellationPrice,
        ...(price.basicOptionPrices ?? []),
      ]
        .filter((o): o is Money => o !== undefined)
        .reduce((s, o) => s + o.price, 0);
      const taxTotal = taxes.reduce((s, t) => s + t.taxAmount, 0);
      expect(taxTotal).toBeGreaterThan(0);
      // Premiums (base and options) plus taxes make the total, to the cent (docs/pricing.md).
      expect(Math.round((price.basePrice.price + options + taxTotal) * 100)).toBe(Math.round(price.totalPrice * 100));
    }
    const result = q.priceResults[0]!;
    expect(result.basePriceResult.priceDetails.map((d) => d.age)).toEqual([42, 40, 9]);
    const comprehensive = q.prices.reduce((a, b) => (a.totalPrice > b.totalPrice ? a : b));
    const basic = q.prices.reduce((a, b) => (a.totalPrice < b.totalPrice ? a : b));
    expect(comprehensive.totalPrice).toBeGreaterThan(basic.totalPrice);
  });

  it('refuses a sanctioned destination with a Notification', async () => {
    const q = await quote({ ...baliTrip(), destinationCountryCodes: ['PRK'] });
    expect(q.validation.isValid).toBe(false);
    expect(q.validation.errors).toContainEqual(
      expect.objectContaining({ code: 'DESTINATION_SANCTIONED', property: 'input.destinationCountryCodes[0]' }),
    );
    expect(q.prices).toEqual([]);
  });

  it('prices nomad in its own currency for another home country', async () => {
    const q = await quote({ ...baliTrip(), homeAddress: { countryCode: 'GBR' } }, 'nomad');
    expect(q.validation.errors.filter((e) => e.title === 'error')).toEqual([]);
    expect(q.prices.length).toBeGreaterThan(0);
  });
});
