import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findQuote, insertQuote } from '../../src/quotes/repository.js';
import type { QuoteRecord } from '../../src/quotes/stored-quote.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';

/** A record as evaluation leaves it: undefined members and -0 where JSON would not keep them. */
function record(over: Partial<QuoteRecord> = {}): QuoteRecord {
  return {
    stage: 'BASEQUOTE',
    customerUserId: 0,
    input: {
      quoteType: 'SINGLETRIP',
      homeAddress: { countryCode: 'AUS', provinceCode: 'NSW' },
      policyHolders: [{ guid: 'a1', age: 42 }],
      validation: { isValid: true, errors: [] },
    },
    pricing: {
      currencyCode: 'AUD',
      priceResults: [
        {
          planId: 101,
          standardExcess: 25_000,
          campaignId: undefined,
          basePriceResult: { planId: 101, saleListPrice: 12_345, salePartnerDiscount: -0, priceDetails: [] },
        },
      ],
      prices: [{ planId: 101, totalPrice: 15_000, specifiedItemOptionPrice: undefined, basicOptionPrices: [] }],
    },
    validation: {
      isValid: true,
      errors: [
        {
          code: 'DESTINATION_UNSAFE',
          message: 'm',
          property: 'input.destinationCountryCodes[0]',
          title: 'warning',
          value: undefined,
        },
      ],
    },
    pricedVersion: '1:2026.1',
    hasConfigChanged: false,
    evaluatedAt: '2026-11-22T13:30:00.000Z',
    audit: {
      createdAt: '2026-11-22T13:30:00.000Z',
      updatedAt: '2026-11-22T13:30:00.000Z',
      createdByUserId: 7,
      createdByUsername: 'u',
      updatedByUserId: 7,
      updatedByUsername: 'u',
    },
    ...over,
  };
}

describe(`quote repository (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();

  it('answers an insert with the quote a read of it gives (as JSON), without reading it back', async () => {
    const cases = [
      record(),
      record({
        clientSessionId: 's-1',
        clientInfo: { ipAddress: '203.0.113.9', userAgent: undefined },
        customerUserId: 9_007_199_254_740_991,
        hasConfigChanged: true,
      }),
    ];
    for (const values of cases) {
      const id = randomUUID();
      const inserted = await insertQuote(database.db, {
        ...values,
        id,
        brandCode: 'brandau',
        partnerId: 42,
        partnerCode: 'PARTNERA',
      });
      const read = await findQuote(database.db, id, 'brandau', 42);
      expect(read).toBeDefined();
      // The answer keeps the record's own values (undefined members, -0): equal as JSON, which
      // is what the store and the response serialiser both make of them.
      expect(JSON.stringify(inserted)).toBe(JSON.stringify(read));
    }
  });
});
