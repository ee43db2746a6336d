import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { CAMPAIGNS, configurationFor, DESTINATIONS, NOW, PLANS, baliTrip } from '../../../test/quotes/fixtures.js';
import { QuoteInput } from '../schemas.js';
import { isBlocking } from '../../kernel/notifications/problems.js';
import { validateQuote, type ValidationData } from './validate-quote.js';

const data = (
  over: Partial<ValidationData> = {},
  quoteType: 'SINGLETRIP' | 'MULTITRIP' = 'SINGLETRIP',
): ValidationData => ({
  brandCode: 'brandau',
  partnerCode: 'PARTNERA',
  configuration: configurationFor('brandau', quoteType),
  destinations: DESTINATIONS,
  plans: PLANS,
  campaign: undefined,
  now: NOW,
  ...over,
});
const codes = (input: QuoteInput, over: Partial<ValidationData> = {}) =>
  validateQuote(input, data(over, input.quoteType)).notifications.map((n) => `${n.code}@${n.property ?? ''}`);

describe('validateQuote', () => {
  it('accepts the Bali trip and derives the rating facts', () => {
    const { notifications, facts } = validateQuote(baliTrip(), data());
    expect(notifications).toEqual([]);
    expect(facts).toMatchObject({
      homeCountryCode: 'AUS',
      quoteDate: '2026-11-22',
      regionCodes: ['ASIA'],
      allAgesKnown: true,
    });
    expect(facts.trip).toMatchObject({ coverDays: 14, longestTripDays: 14 });
    expect(facts.plansSold.map((p) => p.planId)).toEqual([101, 102, 103]);
  });

  it('takes ages at the quote date in the brand time zone (AGEATQUOTE)', () => {
    // 22 Nov 11:00 in Sydney; born 22 Nov 2008 → 18 today there (it is still 21 Nov in UTC-10).
    const input = {
      ...baliTrip(),
      policyHolders: [{ dateOfBirth: '2008-11-22', age: 18 }, { dateOfBirth: '2008-11-23' }],
    };
    expect(codes(input)).toEqual(['TRAVELLER_AGE_OUT_OF_RANGE@input.policyHolders[1].dateOfBirth']);
    expect(codes({ ...baliTrip(), policyHolders: [{ dateOfBirth: '1980-01-01', age: 30 }] })).toEqual([
      'AGE_MISMATCH@input.policyHolders[0].age',
    ]);
    expect(codes({ ...baliTrip(), policyHolders: [{ age: 100 }] })).toEqual([
      'TRAVELLER_AGE_OUT_OF_RANGE@input.policyHolders[0].age',
    ]);
    expect(codes({ ...baliTrip(), policyHolders: [{ age: 40 }, { age: 22, isDependent: true }] })).toEqual([
      'DEPENDENT_AGE_OUT_OF_RANGE@input.policyHolders[1].age',
    ]);
    expect(codes({ ...baliTrip(), policyHolders: [{ dateOfBirth: '2027-01-01' }] })).toContain(
      'DATE_OF_BIRTH_IN_FUTURE@input.policyHolders[0].dateOfBirth',
    );
  });

  it('counts travellers and dependents against the configuration', () => {
    const adults = Array.from({ length: 11 }, () => ({ age: 30 }));
    expect(codes({ ...baliTrip(), policyHolders: adults })).toEqual(['TOO_MANY_TRAVELLERS@input.policyHolders']);
    expect(codes({ ...baliTrip(), policyHolders: [{ age: 5, isDependent: true }] })).toEqual([
      'TOO_FEW_TRAVELLERS@input.policyHolders',
    ]);
    expect(
      codes({
        ...baliTrip(),
        policyHolders: [
          { age: 30, isPrimary: true },
          { age: 31, isPrimary: true },
        ],
      }),
    ).toEqual(['MULTIPLE_PRIMARY_HOLDERS@input.policyHolders']);
  });

  it('checks dates are real, in order, within advance-purchase and duration limits', () => {
    expect(codes({ ...baliTrip(), departureDate: '2026-02-30' })).toEqual(['INVALID_DATE@input.departureDate']);
    expect(codes({ ...baliTrip(), returnDate: '23/12/2026' })).toEqual(['INVALID_DATE@input.returnDate']);
    expect(codes({ ...baliTrip(), returnDate: '2026-12-01' })).toEqual(['RETURN_BEFORE_DEPARTURE@input.returnDate']);
    expect(codes({ ...baliTrip(), departureDate: '2026-11-21' })).toEqual(['DEPARTURE_IN_PAST@input.departureDate']);
    expect(codes({ ...baliTrip(), departureDate: '2028-06-01', returnDate: '2028-06-10' })).toEqual([
      'DEPARTURE_TOO_FAR_AHEAD@input.departureDate',
    ]);
    expect(codes({ ...baliTrip(), returnDate: '2028-06-20' })).toEqual(['DURATION_TOO_LONG@input.returnDate']);
    const months = configurationFor('brandau', 'SINGLETRIP')!;
    months.travelDurationConfigs = [{ ...months.travelDurationConfigs[0]!, maxTravelDurationMonths: 1 }];
    expect(codes({ ...baliTrip(), returnDate: '2027-01-10' }, { configuration: months })).toEqual([
      'DURATION_TOO_LONG_MONTHS@input.returnDate',
    ]);
  });

  it('multi-trip: cover defaults to a year and the longest single trip is limited', () => {
    const multi = { ...baliTrip(), quoteType: 'MULTITRIP' as const, planId: 201 };
    const { notifications, facts } = validateQuote(multi, data({}, 'MULTITRIP'));
    expect(notifications).toEqual([]);
    expect(facts.trip).toMatchObject({ coverEndDate: '2027-12-09', coverDays: 365, longestTripDays: 14 });
    expect(codes({ ...multi, returnDate: '2027-02-20' })).toEqual(['TRIP_TOO_LONG@input.returnDate']);
    expect(codes({ ...multi, coverEndDate: '2028-02-01' })).toEqual(['DURATION_TOO_LONG@input.coverEndDate']);
    expect(codes({ ...multi, coverEndDate: '2026-12-20' })).toEqual(['RETURN_AFTER_COVER_END@input.returnDate']);
  });

  it('refuses unknown, sanctioned and no-product destinations; unsafe is only a warning', () => {
    expect(codes({ ...baliTrip(), destinationCountryCodes: ['XYZ', 'SYR', 'AFG'] })).toEqual([
      'DESTINATION_UNKNOWN@input.destinationCountryCodes[0]',
      'DESTINATION_SANCTIONED@input.destinationCountryCodes[1]',
      'DESTINATION_NO_PRODUCT@input.destinationCountryCodes[2]',
    ]);
    const { notifications } = validateQuote({ ...baliTrip(), destinationCountryCodes: ['IDN', 'UKR'] }, data());
    expect(notifications).toEqual([expect.objectContaining({ code: 'DESTINATION_UNSAFE', title: 'warning' })]);
    expect(notifications.some(isBlocking)).toBe(false);
  });

  it('needs a supported home country and a supported province', () => {
    expect(codes({ ...baliTrip(), homeAddress: { countryCode: 'AUS' } })).toEqual([
      'PROVINCE_REQUIRED@input.homeAddress.provinceCode',
    ]);
    expect(codes({ ...baliTrip(), homeAddress: { countryCode: 'AUS', provinceCode: 'NFK' } })).toEqual([
      'PROVINCE_NOT_SUPPORTED@input.homeAddress.provinceCode',
    ]);
    expect(codes({ ...baliTrip(), homeAddress: { countryCode: 'GBR' } })).toEqual([
      'HOME_COUNTRY_NOT_SUPPORTED@input.homeAddress.countryCode',
    ]);
    // The brand insures one home country only, so it is implied when absent.
    expect(validateQuote({ ...baliTrip(), homeAddress: { provinceCode: 'VIC' } }, data()).facts.homeCountryCode).toBe(
      'AUS',
    );
  });

  it('limits the trip value per adult traveller', () => {
    expect(codes({ ...baliTrip(), tripValue: 60000 })).toEqual([]);
    expect(codes({ ...baliTrip(), tripValue: 60001 })).toEqual(['TRIP_VALUE_TOO_HIGH@input.tripValue']);
  });

  it('accepts only plans sold for the home country on the quote date', () => {
    expect(codes({ ...baliTrip(), planId: 101 })).toEqual([]);
    expect(codes({ ...baliTrip(), planId: 100 })).toEqual(['PLAN_NOT_SOLD@input.planId']); // ended 2026-06-30
    expect(codes({ ...baliTrip(), planId: 301 })).toEqual(['PLAN_NOT_SOLD@input.planId']); // New Zealand residents only
    expect(codes({ ...baliTrip(), planId: 201 })).toEqual(['PLAN_NOT_SOLD@input.planId']); // multi-trip
  });

  it('checks the campaign for brand, partner and date', () => {
    const [summer, winter] = CAMPAIGNS;
    const withCode = (code: string) => ({ ...baliTrip(), campaignCode: code });
    expect(codes(withCode('NOPE'))).toEqual(['CAMPAIGN_UNKNOWN@input.campaignCode']);
    expect(validateQuote(withCode('SUMMER10'), data({ campaign: summer })).facts.campaign?.campaignId).toBe(7);
    expect(codes(withCode('SUMMER10'), { campaign: summer, partnerCode: 'PARTNERB' })).toEqual([
      'CAMPAIGN_NOT_FOR_PARTNER@input.campaignCode',
    ]);
    expect(codes(withCode('WINTER15'), { campaign: winter })).toEqual([
      'CAMPAIGN_NOT_VALID_ON_DATE@input.campaignCode',
    ]);
  });

  it('reports a quote type the brand does not offer', () => {
    expect(codes(baliTrip(), { configuration: undefined })).toEqual(['QUOTE_TYPE_NOT_OFFERED@input.quoteType']);
  });

  it('never throws on any input the schema accepts', () => {
    const date = fc.oneof(
      fc.constantFrom('2026-12-10', '2026-02-29', '2028-02-29', '2026-11-22', '1900-01-01', ''),
      fc.string({ maxLength: 12 }),
    );
    const holder = fc.record(
      {
        age: fc.integer({ min: -1000, max: 1000 }),
        dateOfBirth: date,
        isDependent: fc.boolean(),
        isPrimary: fc.boolean(),
        guid: fc.string({ maxLength: 5 }),
      },
      { requiredKeys: [] },
    );
    const input = fc.record(
      {
        quoteType: fc.constantFrom('SINGLETRIP' as const, 'MULTITRIP' as const),
        homeAddress: fc.record(
          {
            countryCode: fc.constantFrom('AUS', 'NZL', 'aus', '', 'GBR'),
            provinceCode: fc.constantFrom('NSW', 'NFK', '', 'nsw'),
          },
          { requiredKeys: [] },
        ),
        destinationCountryCodes: fc.array(fc.constantFrom(...DESTINATIONS.map((d) => d.code), 'XYZ', 'idn', ''), {
          maxLength: 5,
        }),
        departureDate: date,
        returnDate: date,
        coverEndDate: date,
        planId: fc.constantFrom(0, 100, 101, 201, 301, 999),
        campaignCode: fc.constantFrom('SUMMER10', 'WINTER15', 'X', ''),
        tripValue: fc.double({ min: 0, max: 1e9, noNaN: true }),
        policyHolders: fc.array(holder, { maxLength: 20 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        input,
        fc.constantFrom(undefined, ...CAMPAIGNS),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (value, campaign, now) => {
          expect(Value.Check(QuoteInput, value)).toBe(true);
          const result = validateQuote(value, data({ campaign, now }, value.quoteType));
          expect(Array.isArray(result.notifications)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});
