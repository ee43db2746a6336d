import { describe, expect, it } from 'vitest';
import { baliTrip, configurationFor, DESTINATIONS, NOW, PLANS } from '../../test/quotes/fixtures.js';
import type { QuoteInput, QuoteStage } from './schemas.js';
import { resolveStage } from './stages.js';
import { validateQuote } from './validation/validate-quote.js';

function stageOf(input: QuoteInput, requested: QuoteStage | undefined, current?: QuoteStage) {
  const { notifications, facts } = validateQuote(input, {
    brandCode: 'brandau',
    partnerCode: 'PARTNERA',
    configuration: configurationFor('brandau', 'SINGLETRIP'),
    destinations: DESTINATIONS,
    plans: PLANS,
    campaign: undefined,
    now: NOW,
  });
  const result = resolveStage({
    current,
    requested,
    input,
    facts,
    hasErrors: notifications.some((n) => n.title === 'error'),
  });
  return {
    stage: result.stage,
    missing: result.notifications.filter((n) => n.code === 'STAGE_REQUIREMENT_MISSING').map((n) => n.property),
    codes: result.notifications.map((n) => n.code),
  };
}

const details = (): QuoteInput => ({
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
      emailAddress: 'ann@example.com',
      phoneNumber: '+61 2 5550 1234',
    },
    { guid: 'a2', firstName: 'Bo', lastName: 'Lee', dateOfBirth: '1986-03-15' },
    { guid: 'c1', isDependent: true, firstName: 'Cy', lastName: 'Lee', dateOfBirth: '2017-01-09' },
  ],
});

describe('resolveStage', () => {
  it('a new quote is INITIAL until it can be priced, then BASEQUOTE without asking', () => {
    expect(stageOf({ destinationCountryCodes: ['IDN'] }, undefined)).toEqual({
      stage: 'INITIAL',
      missing: [],
      codes: [],
    });
    expect(stageOf(baliTrip(), undefined).stage).toBe('BASEQUOTE');
  });

  it("BASEQUOTE needs destinations, dates, home country and every traveller's age", () => {
    const r = stageOf(
      { ...baliTrip(), destinationCountryCodes: [], returnDate: undefined, policyHolders: [{ guid: 'x' }] },
      'BASEQUOTE',
    );
    expect(r.stage).toBe('INITIAL');
    expect(r.missing).toEqual(['input.destinationCountryCodes', 'input.returnDate', 'input.policyHolders[0].age']);
    expect(r.codes).toContain('STAGE_NOT_REACHED');
  });

  it('OPTIONS needs a chosen plan', () => {
    expect(stageOf(baliTrip(), 'OPTIONS', 'BASEQUOTE')).toMatchObject({
      stage: 'BASEQUOTE',
      missing: ['input.planId'],
    });
    expect(stageOf({ ...baliTrip(), planId: 101 }, 'OPTIONS', 'BASEQUOTE').stage).toBe('OPTIONS');
  });

  it("DETAILS needs names, birth dates, the primary holder's phone and the home address (not an e-mail)", () => {
    expect(stageOf(details(), 'DETAILS', 'OPTIONS')).toEqual({ stage: 'DETAILS', missing: [], codes: [] });
    const noEmail = details();
    noEmail.policyHolders![0] = { ...noEmail.policyHolders![0], emailAddress: undefined };
    expect(stageOf(noEmail, 'DETAILS', 'OPTIONS').stage).toBe('DETAILS');
    const input = details();
    input.policyHolders![0] = { ...input.policyHolders![0], emailAddress: undefined, phoneNumber: undefined };
    input.homeAddress = { countryCode: 'AUS', provinceCode: 'NSW' };
    expect(stageOf(input, 'DETAILS', 'OPTIONS')).toMatchObject({
      stage: 'OPTIONS',
      missing: ['input.policyHolders[0].phoneNumber', 'input.homeAddress.addressLine1', 'input.homeAddress.postalCode'],
    });
  });

  it("MEDICAL_SCREENING needs each adult's screening choice; PAYMENT needs every declaration agreed", () => {
    const screened = details();
    screened.policyHolders = screened.policyHolders!.map((h) => ({
      ...h,
      travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: false },
    }));
    expect(stageOf(details(), 'MEDICAL_SCREENING', 'DETAILS').missing).toEqual([
      'input.policyHolders[0].travelClearOption.optionType',
      'input.policyHolders[1].travelClearOption.optionType',
    ]);
    expect(stageOf(screened, 'MEDICAL_SCREENING', 'DETAILS').stage).toBe('MEDICAL_SCREENING');
    expect(
      stageOf(
        { ...screened, regulatoryDeclarations: [{ termConditionId: 4, hasAgreed: false }] },
        'PAYMENT',
        'MEDICAL_SCREENING',
      ).missing,
    ).toEqual(['input.regulatoryDeclarations[0].hasAgreed']);
    expect(
      stageOf(
        { ...screened, regulatoryDeclarations: [{ termConditionId: 4, hasAgreed: true }] },
        'PAYMENT',
        'MEDICAL_SCREENING',
      ).stage,
    ).toBe('PAYMENT');
  });

  it('may skip forward when every stage in between is satisfied, and go back to BASEQUOTE but never to INITIAL', () => {
    expect(stageOf(details(), 'DETAILS', 'BASEQUOTE').stage).toBe('DETAILS');
    expect(stageOf(details(), 'BASEQUOTE', 'DETAILS').stage).toBe('BASEQUOTE');
    expect(stageOf(details(), 'INITIAL', 'DETAILS')).toMatchObject({
      stage: 'DETAILS',
      codes: ['STAGE_BACKWARD_NOT_ALLOWED'],
    });
  });

  it('a quote with validation errors does not move forward', () => {
    const r = stageOf({ ...details(), destinationCountryCodes: ['PRK'] }, 'DETAILS', 'BASEQUOTE');
    expect(r).toMatchObject({ stage: 'BASEQUOTE', codes: ['STAGE_NOT_REACHED'] });
  });
});
