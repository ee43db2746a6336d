import { describe, expect, it } from 'vitest';
import type { PlanVersion, Term } from '../catalogue/model.js';
import type { StoredQuote } from '../quotes/stored-quote.js';
import { assessReadiness, purchaseTerms, type ReadinessFacts } from './readiness.js';
import { screened, type TestCondition } from '../../test/screening/screened.js';

const term = (termConditionId: number, extra: Partial<Term> = {}): Term => ({
  termConditionId,
  customerDeclarationText: 'I agree.',
  tokenReplacements: [],
  policyActionTypeId: 1,
  ...extra,
});

const PLAN: PlanVersion = {
  planId: 7,
  code: 'COMP',
  quoteType: 'SINGLETRIP',
  name: 'Comprehensive',
  translations: {},
  insuranceContractId: 1,
  policyNumberPrefix: 'X',
  policyNumberFormat: '{prefix}{increment:6}',
  underwriterCode: 'U',
  currencyCode: 'AUD',
  currencyId: 36,
  displayGroupId: 1,
  binderId: 1,
  homeCountryCodes: ['AUS'],
  effectiveFromDate: '2026-07-01',
  terms: [
    term(1),
    term(2, { countryCode: 'NZL' }),
    term(3, { partnerGroupIds: [9] }),
    term(4, { policyActionTypeId: 3 }),
    term(5, { destinationCountryCodes: ['USA'] }),
    term(6, { provinceCode: 'NSW' }),
  ],
};

function quote(overrides: Partial<StoredQuote> = {}): StoredQuote {
  return {
    id: 'q1',
    brandCode: 'brandau',
    partnerId: 1,
    partnerCode: 'P',
    revision: 1,
    isPurchased: false,
    isPurchaseInitiated: false,
    stage: 'DETAILS',
    customerUserId: 0,
    pricedVersion: 'v',
    hasConfigChanged: false,
    evaluatedAt: '2026-11-22T00:00:00.000Z',
    input: {
      planId: 7,
      homeAddress: { countryCode: 'AUS', provinceCode: 'VIC' },
      destinationCountryCodes: ['IDN'],
      policyHolders: [
        {
          guid: 'a',
          dateOfBirth: '1980-01-01',
          firstName: 'Ann',
          lastName: 'Lee',
          emailAddress: 'a@x.test',
          phoneNumber: '1',
          isPrimary: true,
        },
      ],
    },
    pricing: { currencyCode: 'AUD', priceResults: [], prices: [{ planId: 7, totalPrice: 10_000 }] },
    validation: { isValid: true, errors: [] },
    audit: {
      createdAt: '',
      updatedAt: '',
      createdByUserId: 1,
      createdByUsername: 'u',
      updatedByUserId: 1,
      updatedByUsername: 'u',
    },
    ...overrides,
  };
}

const facts: ReadinessFacts = { plan: PLAN, today: '2026-11-22', partnerGroupIds: [], screenings: [] };
const agreed = (...ids: number[]) => ({
  quote: {
    id: 'q1',
    input: { regulatoryDeclarations: ids.map((termConditionId) => ({ termConditionId, hasAgreed: true })) },
  },
});

describe('purchase readiness', () => {
  it('requires the purchase terms that apply to the partner, home, province and trip', () => {
    expect(purchaseTerms(PLAN, quote().input, []).map((t) => t.termConditionId)).toEqual([1]);
    const elsewhere = {
      ...quote().input,
      homeAddress: { countryCode: 'AUS', provinceCode: 'nsw' },
      destinationCountryCodes: ['usa'],
    };
    expect(purchaseTerms(PLAN, elsewhere, [9]).map((t) => t.termConditionId)).toEqual([1, 3, 5, 6]);
  });

  it('is ready with every term agreed and takes the chosen plan price', () => {
    const result = assessReadiness(quote(), agreed(1), facts);
    expect(result.notifications).toEqual([]);
    expect(result.price?.totalPrice).toBe(10_000);
  });

  it('names each unagreed term, and a declaration sent with hasAgreed false', () => {
    const body = { quote: { id: 'q1', input: { regulatoryDeclarations: [{ termConditionId: 1, hasAgreed: false }] } } };
    expect(assessReadiness(quote(), body, facts).notifications).toEqual([
      expect.objectContaining({
        code: 'DECLARATION_NOT_AGREED',
        property: 'quote.input.regulatoryDeclarations[0].hasAgreed',
      }),
    ]);
    expect(assessReadiness(quote(), { quote: { id: 'q1' } }, facts).notifications).toEqual([
      expect.objectContaining({ property: 'quote.input.regulatoryDeclarations', tokens: { termConditionId: '1' } }),
    ]);
  });

  it('refuses invalid, early, unpriced, unchosen and no-longer-sold quotes', () => {
    const codes = (q: StoredQuote, f = facts) => assessReadiness(q, agreed(1), f).notifications.map((n) => n.code);
    expect(codes(quote({ validation: { isValid: false, errors: [] } }))).toEqual(['QUOTE_NOT_VALID']);
    expect(codes(quote({ stage: 'OPTIONS' }))).toEqual([
      'QUOTE_NOT_READY',
      'STAGE_REQUIREMENT_MISSING',
      'STAGE_REQUIREMENT_MISSING',
    ]);
    expect(codes(quote({ stage: 'PAYMENT' }))).toEqual([]);
    expect(codes(quote({ pricing: { priceResults: [], prices: [] } }))).toEqual(['QUOTE_NOT_PRICED']);
    expect(codes(quote({ input: { ...quote().input, planId: 8 } }))).toEqual(['PLAN_NOT_CHOSEN']);
    expect(codes(quote(), { ...facts, today: '2026-06-30' })).toEqual(['PLAN_NOT_SOLD']);
    expect(codes(quote(), { ...facts, plan: undefined })).toEqual(['PLAN_NOT_SOLD']);
  });

  it('judges readiness by the data, not the stored stage, and names what is missing', () => {
    const input = quote().input;
    const complete = { ...input, homeAddress: { ...input.homeAddress, addressLine1: '1 St', postalCode: '3000' } };
    const early = quote({ stage: 'BASEQUOTE', input: complete });
    expect(assessReadiness(early, agreed(1), facts)).toMatchObject({ notifications: [], stage: 'DETAILS' });
    const noPhone = quote({
      stage: 'BASEQUOTE',
      input: { ...complete, policyHolders: [{ ...input.policyHolders![0]!, phoneNumber: ' ' }] },
    });
    const refused = assessReadiness(noPhone, agreed(1), facts);
    expect(refused.stage).toBe('OPTIONS');
    expect(refused.notifications).toEqual([
      expect.objectContaining({ code: 'QUOTE_NOT_READY', tokens: { stage: 'OPTIONS', required: 'DETAILS' } }),
      expect.objectContaining({
        code: 'STAGE_REQUIREMENT_MISSING',
        property: 'quote.input.policyHolders[0].phoneNumber',
      }),
    ]);
    // The body's holder details complete the stored ones.
    const completed = {
      quote: { id: 'q1', input: { ...agreed(1).quote.input, policyHolders: [{ phoneNumber: '2' }] } },
    };
    expect(assessReadiness(noPhone, completed, facts).notifications).toEqual([]);
  });

  it('merges only non-blank name and contact fields; a different date of birth or an extra holder is refused', () => {
    const body = {
      quote: {
        id: 'q1',
        input: {
          policyHolders: [{ firstName: 'Anna', lastName: ' ', emailAddress: 'anna@x.test', dateOfBirth: '1980-01-01' }],
          regulatoryDeclarations: [{ termConditionId: 1, hasAgreed: true }],
        },
      },
    };
    const result = assessReadiness(quote(), body, facts);
    expect(result.notifications).toEqual([]);
    expect(result.input.policyHolders?.[0]).toMatchObject({
      firstName: 'Anna',
      lastName: 'Lee',
      emailAddress: 'anna@x.test',
      dateOfBirth: '1980-01-01',
      guid: 'a',
    });
    const changed = {
      quote: {
        id: 'q1',
        input: { ...body.quote.input, policyHolders: [{ dateOfBirth: '1990-01-01' }, { firstName: 'Extra' }] },
      },
    };
    expect(
      assessReadiness(quote(), changed, facts)
        .notifications.map((n) => n.code)
        .sort(),
    ).toEqual(['DATE_OF_BIRTH_CHANGED', 'TOO_MANY_POLICY_HOLDERS']);
  });

  it('refuses before any money moves: a declined traveller, a referral, a stale or missing screening', async () => {
    const optedIn = quote();
    const holder = optedIn.input.policyHolders?.[0];
    if (!holder) throw new Error('no holder');
    holder.travelClearOption = { optionType: 'TRAVELCLEAR', isOptedInForScreening: true, isOptedInForCover: true };
    const codesWith = async (conditions: TestCondition[], status: 'COMPLETED' | 'STALE' = 'COMPLETED') =>
      assessReadiness(optedIn, agreed(1), {
        ...facts,
        screenings: [await screened('a', conditions, { status })],
      }).notifications.map((n) => `${n.code} ${n.property}`);
    const at = 'quote.input.policyHolders[0].travelClearOption';
    expect(await codesWith(['TEST_DECLINE_TRAVELLER'])).toEqual([`SCREENING_DECLINED ${at}`]);
    expect(await codesWith(['TEST_REFERRED'])).toEqual([`SCREENING_REFERRED ${at}`]);
    expect(await codesWith(['TEST_COVERED'], 'STALE')).toContain(`SCREENING_STALE ${at}`);
    const missing = assessReadiness(optedIn, agreed(1), facts).notifications.map((n) => `${n.code} ${n.property}`);
    expect(missing).toContain(`SCREENING_REQUIRED ${at}`);
    // Covered, excluded or declined conditions (not the whole traveller) can be bought.
    expect(await codesWith(['TEST_COVERED', 'TEST_EXCLUDED', 'TEST_DECLINED'])).toEqual([]);
    expect(await codesWith([])).toEqual([]);
  });
});
