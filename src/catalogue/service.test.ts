import { beforeAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from './compile.js';
import { UnknownHomeCountry } from './errors.js';
import { snapshotOf, type CatalogueSnapshot } from './reader.js';
import { brandOf, effectiveDate, planVersionAt, homeCountryQuoteConfiguration } from './service.js';

let snapshot: CatalogueSnapshot;
beforeAll(async () => {
  const { catalogue, problems } = await validateCatalogue('catalogue');
  if (!catalogue) throw new Error(`demo catalogue invalid: ${JSON.stringify(problems[0])}`);
  snapshot = snapshotOf(catalogue, 1, '2026-01-01T00:00:00.000Z');
});

describe('catalogue rules', () => {
  it('gives the quote configuration for brand, quote type and home country', () => {
    const au = homeCountryQuoteConfiguration(snapshot, 'brandau', 'MULTITRIP', 'AUS');
    expect(au).toMatchObject({ quotePanelTypeId: 2, maxTravellers: 2, isProvinceRequiredForQuote: true, homeCountry: { timeZone: 'Australia/Sydney' } });
    expect(au.travelDuration.maxTripDurationDays).toBe(45);
    expect(au.homeCountry.provinces.find((p) => p.code === 'WA')?.timeZone).toBe('Australia/Perth');
    const japan = homeCountryQuoteConfiguration(snapshot, 'nomad', 'SINGLETRIP', 'JPN');
    expect(japan.travelDuration.maxTravelDurationDays).toBe(180);
    expect(homeCountryQuoteConfiguration(snapshot, 'nomad', 'SINGLETRIP', 'USA').sanctionedCountryCodes).toContain('CUB');
    expect(() => homeCountryQuoteConfiguration(snapshot, 'brandnz', 'SINGLETRIP', 'AUS')).toThrow(UnknownHomeCountry);
  });

  it('chooses plan versions by date', () => {
    const brand = brandOf(snapshot, 'directau');
    expect(planVersionAt(brand, 'AMT', '2026-06-30').planId).toBe(300401);
    expect(planVersionAt(brand, 'AMT', '2026-07-01').planId).toBe(300402);
  });

  it('reads effectiveAt as a date in the brand time zone', () => {
    const brand = brandOf(snapshot, 'brandnz');
    const now = new Date('2026-06-30T13:00:00Z'); // 01:00 on 1 July in Auckland
    expect(effectiveDate(snapshot, brand, undefined, now)).toBe('2026-07-01');
    expect(effectiveDate(snapshot, brand, '2026-06-30', now)).toBe('2026-06-30');
    expect(effectiveDate(snapshot, brand, '2026-06-30T11:59:00Z', now)).toBe('2026-06-30');
    expect(() => effectiveDate(snapshot, brand, '2026-13-01', now)).toThrow(/not a calendar date/);
  });

  it('prices never fall as duration or age rise and taxes follow the brief', () => {
    const au = brandOf(snapshot, 'brandau').rates;
    expect(au.taxes.find((t) => t.taxName === 'GST')).toMatchObject({ ratePercentage: 10, base: 'PREMIUM' });
    expect(au.taxes.find((t) => t.provinceCode === 'NSW')).toMatchObject({ base: 'PREMIUM_AND_PRECEDING_TAXES' });
    expect(brandOf(snapshot, 'brandnz').rates.taxes).toEqual([expect.objectContaining({ taxName: 'GST', ratePercentage: 15 })]);
    expect(au.partnerDiscounts).toContainEqual(expect.objectContaining({ partnerCode: 'DEMOA' }));
    for (const plan of au.plans) {
      const price = (region: string, d: number, a: number) => plan.basePrices.find((p) => p.region === region && p.durationBandId === d && p.ageBandId === a)?.salePrice;
      expect(price('PACIFIC', 1, 1)).toBeLessThanOrEqual(price('PACIFIC', 2, 1) ?? 0);
      expect(price('WORLDWIDE', 3, 2)).toBeLessThanOrEqual(price('WORLDWIDE', 3, 3) ?? 0);
    }
  });
});
