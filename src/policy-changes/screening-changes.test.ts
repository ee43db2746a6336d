import { describe, expect, it } from 'vitest';
import type { QuoteInput } from '../quotes/schemas.js';
import { screened } from '../../test/screening/screened.js';
import { screeningChangeProblems } from './screening-changes.js';

const trip: QuoteInput = {
  quoteType: 'SINGLETRIP',
  destinationCountryCodes: ['IDN'],
  departureDate: '2026-12-10',
  returnDate: '2026-12-23',
  policyHolders: [{ guid: 'a1' }, { guid: 'a2' }],
};
const same = { current: 'COMP', next: 'COMP' };

describe('an amendment of a policy with screened travellers (real engine assessments)', () => {
  it('needs a new screening when the destinations, length, travellers or plan change', async () => {
    const screenings = [await screened('a1', ['TEST_COVERED'])];
    const codes = (next: QuoteInput, plans = same) =>
      screeningChangeProblems(trip, next, plans, screenings).map((n) => `${n.code} ${n.property}`);
    expect(codes({ ...trip, destinationCountryCodes: ['USA'] })).toEqual(['SCREENING_REQUIRED input.policyHolders']);
    expect(codes({ ...trip, returnDate: '2026-12-30' })).toHaveLength(1);
    expect(codes({ ...trip, policyHolders: [{ guid: 'a1' }] })).toHaveLength(1);
    expect(codes(trip, { current: 'COMP', next: 'ESSENTIALS' })).toHaveLength(1);
    // The same trip a week later, or with the codes in another case and order, keeps the screening.
    expect(codes({ ...trip, departureDate: '2026-12-17', returnDate: '2026-12-30' })).toEqual([]);
    expect(codes({ ...trip, destinationCountryCodes: ['idn'] })).toEqual([]);
  });

  it('lets any change through when nobody on the policy was screened', async () => {
    const other = [await screened('someone-else', ['TEST_COVERED'])];
    expect(screeningChangeProblems(trip, { ...trip, destinationCountryCodes: ['USA'] }, same, other)).toEqual([]);
    expect(screeningChangeProblems(trip, { ...trip, destinationCountryCodes: ['USA'] }, same, [])).toEqual([]);
  });
});
