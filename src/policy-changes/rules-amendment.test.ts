import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ServicingRules } from '../catalogue/model.js';
import type { QuoteInput } from '../quotes/schemas.js';
import { amendmentProblems } from './rules.js';

const RULES: ServicingRules = {
  coolingOffDays: 21,
  cancellation: { beforeDeparture: 'PRO_RATA', afterDeparture: 'PRO_RATA', feeMinor: 2500 },
  amendment: {
    feeMinor: 0,
    beforeDeparture: { dates: true, destinations: true, travellers: true, options: true },
    afterDeparture: { extendReturnDate: true },
  },
};

const HOLDER = { guid: 'a', firstName: 'Ann', lastName: 'Lee', dateOfBirth: '1980-05-01', isPrimary: true };
const CURRENT: QuoteInput = {
  quoteType: 'SINGLETRIP',
  planId: 100102,
  homeAddress: { countryCode: 'AUS', provinceCode: 'NSW', addressLine1: '1 Main St' },
  destinationCountryCodes: ['FRA', 'DEU'],
  departureDate: '2026-08-01',
  returnDate: '2026-08-20',
  policyHolders: [HOLDER, { guid: 'b', age: 10, isDependent: true }],
  basicOptions: [
    { optionType: 'CRUISE', isOptedIn: true },
    { optionType: 'SNOWSPORTS', isOptedIn: false },
  ],
};
const judge = (next: Partial<QuoteInput>, departed = false, rules = RULES) =>
  amendmentProblems(rules, { departed, current: CURRENT, next: { ...CURRENT, ...next } });
const codes = (problems: ReturnType<typeof judge>) => problems.map((p) => `${p.code} ${p.property}`);

describe('amendmentProblems', () => {
  it('finds nothing in an unchanged input, reordered destinations, opt-outs or name and contact corrections', () => {
    expect(judge({})).toEqual([]);
    expect(
      judge(
        { destinationCountryCodes: ['DEU', 'FRA'], basicOptions: [{ optionType: 'CRUISE', isOptedIn: true }] },
        true,
      ),
    ).toEqual([]);
    const corrected = [
      { ...HOLDER, firstName: 'Anne', emailAddress: 'anne@example.com' },
      CURRENT.policyHolders?.[1] ?? {},
    ];
    expect(
      judge({ policyHolders: corrected, homeAddress: { ...CURRENT.homeAddress, addressLine1: '2 Main St' } }, true),
    ).toEqual([]);
  });

  it('refuses the fields never changeable and existing travellers’ birth dates and ages', () => {
    const problems = judge({
      quoteType: 'MULTITRIP',
      planId: 100202,
      campaignCode: 'SPRING',
      homeAddress: { countryCode: 'AUS', provinceCode: 'VIC' },
      policyHolders: [
        { ...HOLDER, dateOfBirth: '1981-05-01' },
        { guid: 'b', age: 11, isDependent: true },
      ],
    });
    expect(codes(problems)).toEqual([
      'FIELD_NOT_CHANGEABLE input.quoteType',
      'FIELD_NOT_CHANGEABLE input.planId',
      'FIELD_NOT_CHANGEABLE input.homeAddress.provinceCode',
      'FIELD_NOT_CHANGEABLE input.campaignCode',
      'FIELD_NOT_CHANGEABLE input.policyHolders[0].dateOfBirth',
      'FIELD_NOT_CHANGEABLE input.policyHolders[1].age',
    ]);
    expect(problems[0]).toMatchObject({ title: 'error', tokens: { field: 'quoteType' } });
  });

  it('before departure allows each category its flag allows', () => {
    const change = {
      departureDate: '2026-08-03',
      destinationCountryCodes: ['JPN'],
      policyHolders: [HOLDER],
      basicOptions: [{ optionType: 'SNOWSPORTS', isOptedIn: true }],
    };
    expect(judge(change)).toEqual([]);
    const closed: ServicingRules = {
      ...RULES,
      amendment: {
        ...RULES.amendment,
        beforeDeparture: { dates: false, destinations: false, travellers: false, options: false },
      },
    };
    const problems = judge(change, false, closed);
    expect(codes(problems)).toEqual([
      'AMENDMENT_NOT_ALLOWED input.departureDate',
      'AMENDMENT_NOT_ALLOWED input.destinationCountryCodes',
      'AMENDMENT_NOT_ALLOWED input.policyHolders',
      'AMENDMENT_NOT_ALLOWED input.basicOptions',
    ]);
    expect(problems[2]?.tokens).toEqual({ field: 'policyHolders' });
  });

  it('after departure allows only a later return date, when the rule allows extending', () => {
    expect(judge({ returnDate: '2026-08-25' }, true)).toEqual([]);
    expect(codes(judge({ returnDate: '2026-08-19' }, true))).toEqual(['RETURN_DATE_NOT_EXTENDED input.returnDate']);
    const noExtend: ServicingRules = {
      ...RULES,
      amendment: { ...RULES.amendment, afterDeparture: { extendReturnDate: false } },
    };
    expect(codes(judge({ returnDate: '2026-08-25' }, true, noExtend))).toEqual([
      'AMENDMENT_NOT_ALLOWED input.returnDate',
    ]);
    expect(
      codes(judge({ departureDate: '2026-08-02', destinationCountryCodes: ['JPN'], tripValue: 5000 }, true)),
    ).toEqual([
      'AMENDMENT_NOT_ALLOWED input.departureDate',
      'AMENDMENT_NOT_ALLOWED input.destinationCountryCodes',
      'AMENDMENT_NOT_ALLOWED input.tripValue',
    ]);
  });

  it('refuses a repeated guid and counts travellers: a repeated guid adds a traveller, never hides a birth date change', () => {
    const second = CURRENT.policyHolders?.[1] ?? {};
    const added = judge({ policyHolders: [HOLDER, { ...HOLDER, firstName: 'Bob' }, second] }, true);
    expect(codes(added)).toEqual([
      'DUPLICATE_GUID input.policyHolders[1].guid',
      'AMENDMENT_NOT_ALLOWED input.policyHolders',
    ]);
    expect(added[0]).toMatchObject({ value: 'a', tokens: { guid: 'a' } });
    const reborn = judge({ policyHolders: [{ ...HOLDER, dateOfBirth: '1990-01-01' }, HOLDER, second] }, true);
    expect(codes(reborn)).toEqual([
      'DUPLICATE_GUID input.policyHolders[1].guid',
      'AMENDMENT_NOT_ALLOWED input.policyHolders',
      'FIELD_NOT_CHANGEABLE input.policyHolders[0].dateOfBirth',
    ]);
    // Before departure too: the guid names one traveller.
    expect(codes(judge({ policyHolders: [HOLDER, second, { ...second, guid: 'a' }] }))).toContain(
      'DUPLICATE_GUID input.policyHolders[2].guid',
    );
  });

  it('extends a multi-trip policy by its cover end date', () => {
    const current: QuoteInput = {
      ...CURRENT,
      quoteType: 'MULTITRIP',
      returnDate: '2026-08-31',
      coverEndDate: '2027-07-31',
    };
    const judgeAmt = (next: Partial<QuoteInput>) =>
      amendmentProblems(RULES, { departed: true, current, next: { ...current, ...next } });
    expect(judgeAmt({ coverEndDate: '2027-08-31' })).toEqual([]);
    expect(codes(judgeAmt({ returnDate: '2026-09-30' }))).toEqual(['AMENDMENT_NOT_ALLOWED input.returnDate']);
  });

  it('finds no problem in an unchanged input under any rules', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), (departed, flag, extend) => {
        const rules: ServicingRules = {
          ...RULES,
          amendment: {
            feeMinor: 0,
            beforeDeparture: { dates: flag, destinations: flag, travellers: flag, options: flag },
            afterDeparture: { extendReturnDate: extend },
          },
        };
        expect(amendmentProblems(rules, { departed, current: CURRENT, next: structuredClone(CURRENT) })).toEqual([]);
      }),
    );
  });
});
