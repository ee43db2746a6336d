import { describe, expect, it } from 'vitest';
import type { QuoteInput } from '../quotes/schemas.js';
import { screenedDurationDays, tripFingerprintOf } from './fingerprint.js';

const trip: QuoteInput = {
  quoteType: 'SINGLETRIP',
  destinationCountryCodes: ['ID', 'TH'],
  departureDate: '2026-12-10',
  returnDate: '2026-12-23',
  planId: 7,
  policyHolders: [{ guid: 'a', dateOfBirth: '1960-05-01' }],
};

describe("a screening's fingerprint", () => {
  it('holds for the same trip moved in time, destinations in any order or case', () => {
    const same = tripFingerprintOf(trip, 'a');
    expect(tripFingerprintOf({ ...trip, departureDate: '2027-01-10', returnDate: '2027-01-23' }, 'a')).toBe(same);
    expect(tripFingerprintOf({ ...trip, destinationCountryCodes: ['th', 'ID', 'TH'] }, 'a')).toBe(same);
  });

  it("changes with the days of cover, a destination, the plan or the traveller's date of birth", () => {
    const same = tripFingerprintOf(trip, 'a');
    const changed: QuoteInput[] = [
      { ...trip, returnDate: '2026-12-24' },
      { ...trip, destinationCountryCodes: ['ID', 'US'] },
      { ...trip, planId: 8 },
      { ...trip, policyHolders: [{ guid: 'a', dateOfBirth: '1960-05-02' }] },
    ];
    for (const input of changed) expect(tripFingerprintOf(input, 'a')).not.toBe(same);
    expect(tripFingerprintOf(trip, 'b')).toBeUndefined();
  });

  it('counts both ends of the cover, to the cover end of a multi-trip', () => {
    expect(screenedDurationDays(trip)).toBe(14);
    expect(screenedDurationDays({ ...trip, quoteType: 'MULTITRIP', coverEndDate: '2027-12-09' })).toBe(365);
    expect(screenedDurationDays({ ...trip, departureDate: undefined })).toBe(1);
  });
});
