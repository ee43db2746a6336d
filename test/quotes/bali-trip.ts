import type { PolicyHolderInput, QuoteInput } from '../../src/quotes/schemas.js';

/** The bar: two adults and a dependent from Sydney to Bali for 14 days. */
export function baliTrip(): QuoteInput & { policyHolders: PolicyHolderInput[] } {
  return {
    quoteType: 'SINGLETRIP',
    homeAddress: { countryCode: 'AUS', provinceCode: 'NSW' },
    destinationCountryCodes: ['IDN'],
    departureDate: '2026-12-10',
    returnDate: '2026-12-23',
    policyHolders: [
      { guid: 'adult-1', age: 42, isPrimary: true },
      { guid: 'adult-2', dateOfBirth: '1986-03-15' },
      { guid: 'child-1', age: 9, isDependent: true },
    ],
  };
}
