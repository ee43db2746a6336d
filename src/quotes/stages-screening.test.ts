import { describe, expect, it } from 'vitest';
import { baliTrip, configurationFor, DESTINATIONS, NOW, PLANS } from '../../test/quotes/fixtures.js';
import { screened } from '../../test/screening/screened.js';
import type { TravellerScreening } from '../screening/model.js';
import type { QuoteInput } from './schemas.js';
import { dataReaches, resolveStage } from './stages.js';
import { validateQuote } from './validation/validate-quote.js';

function stageOf(input: QuoteInput, screenings: readonly TravellerScreening[], screeningOffered?: boolean) {
  const { notifications, facts } = validateQuote(input, {
    brandCode: 'brandau',
    partnerCode: 'PARTNERA',
    configuration: configurationFor('brandau', 'SINGLETRIP'),
    destinations: DESTINATIONS,
    plans: PLANS,
    campaign: undefined,
    now: NOW,
  });
  expect(notifications.filter((n) => n.title === 'error')).toEqual([]);
  return resolveStage({
    current: 'DETAILS',
    requested: 'MEDICAL_SCREENING',
    input,
    facts,
    hasErrors: false,
    screenings,
    ...(screeningOffered === undefined ? {} : { screeningOffered }),
  });
}

const choice = (isOptedInForScreening: boolean) => ({
  optionType: 'TRAVELCLEAR',
  isOptedInForScreening,
  isOptedInForCover: isOptedInForScreening,
});
const quote = (aliceOptsIn: boolean): QuoteInput => ({
  ...baliTrip(),
  planId: 101,
  homeAddress: { countryCode: 'AUS', provinceCode: 'NSW', addressLine1: '1 George St', postalCode: '2000' },
  policyHolders: [
    {
      guid: 'a1',
      isPrimary: true,
      firstName: 'Ann',
      lastName: 'Lee',
      dateOfBirth: '1984-05-01',
      phoneNumber: '+61 2 5550 1234',
      travelClearOption: choice(aliceOptsIn),
    },
    { guid: 'a2', firstName: 'Bo', lastName: 'Lee', dateOfBirth: '1986-03-15', travelClearOption: choice(false) },
  ],
});
const PATH = 'input.policyHolders[0].travelClearOption';

describe('stage MEDICAL_SCREENING and the travellers’ screenings (real engine assessments)', () => {
  it('is reached when nobody opted in for screening', () => {
    expect(stageOf(quote(false), []).stage).toBe('MEDICAL_SCREENING');
  });

  it('stays at DETAILS, naming the traveller, while an opted-in traveller has no screening', () => {
    const result = stageOf(quote(true), []);
    expect(result.stage).toBe('DETAILS');
    expect(result.notifications.map((n) => [n.code, n.property])).toEqual([
      ['SCREENING_REQUIRED', PATH],
      ['STAGE_NOT_REACHED', 'stage'],
    ]);
  });

  it('stays at DETAILS with SCREENING_STALE when the screening no longer matches the quote', async () => {
    const result = stageOf(quote(true), [await screened('a1', ['TEST_COVERED'], { status: 'STALE' })]);
    expect(result.stage).toBe('DETAILS');
    expect(result.notifications[0]).toMatchObject({ code: 'SCREENING_STALE', property: PATH, title: 'error' });
  });

  it('is reached once the screening is COMPLETED, whatever its outcome (purchase judges the outcome)', async () => {
    for (const condition of ['TEST_COVERED', 'TEST_DECLINE_TRAVELLER', 'TEST_REFERRED'] as const) {
      const result = stageOf(quote(true), [await screened('a1', [condition])]);
      expect(result.stage).toBe('MEDICAL_SCREENING');
      expect(result.notifications).toEqual([]);
    }
  });

  it('on a plan without screening, names the cause (SCREENING_NOT_OFFERED) for an opted-in traveller only', () => {
    const result = stageOf(quote(true), [], false);
    expect(result.stage).toBe('DETAILS');
    expect(result.notifications.map((n) => [n.code, n.property])).toEqual([
      ['SCREENING_NOT_OFFERED', PATH],
      ['STAGE_NOT_REACHED', 'stage'],
    ]);
    expect(stageOf(quote(false), [], false).stage).toBe('MEDICAL_SCREENING');
  });

  it('judges a stored quote’s data the same way (purchase readiness)', async () => {
    expect(dataReaches('DETAILS', quote(true), [])).toMatchObject({ stage: 'DETAILS', missing: [PATH] });
    const done = [await screened('a1', ['TEST_COVERED'])];
    expect(dataReaches('DETAILS', quote(true), done).stage).not.toBe('DETAILS');
  });
});
