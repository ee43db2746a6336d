import type { DetailRecord, PersonRecord, PolicyRecord } from '../../src/policies/model.js';

const audit = (at: string) => ({ createdAt: at, createdByUserId: 7, updatedAt: at, updatedByUserId: 7 });

const person = (id: number, firstName: string, surname: string, isPrimary = false): PersonRecord => ({
  id,
  guid: `g-${id}`,
  displayOrder: id,
  isPrimary,
  firstName,
  surname,
  dateOfBirth: '1980-05-17',
});

/** One transaction of the fixture policy: a purchase unless told. */
export function detailOf(sequenceNumber: number, overrides: Partial<DetailRecord> = {}): DetailRecord {
  return {
    id: 100 + sequenceNumber,
    sequenceNumber,
    policyDetailNumber: `NMD-2026-000123-${sequenceNumber}`,
    actionType: 'Purchase',
    statusId: 1,
    status: 'Active',
    client: {},
    departureDate: '2026-12-01',
    coverEndDate: '2026-12-21',
    address: { countryCode: 'US', countryName: 'United States' },
    specifiedItems: [{ name: 'Camera', serialNumber: 'SN-1', valueMinor: 120_000 }],
    paymentMethod: 'CARD',
    audit: audit(`2026-11-2${sequenceNumber}T10:00:00.000Z`),
    travellers: [person(1, 'Ada', 'Lovelace', true), person(2, 'Charles', 'Babbage')],
    dependents: [person(3, 'Byron', 'King')],
    options: [{ id: 1, planId: 400112, optionTypeId: 4002, name: 'SNOWSPORTS', displayOrder: 1 }],
    financials: [
      { transactionTypeId: 1, amountMinor: 25_000 },
      { transactionTypeId: 2, amountMinor: 2_500 },
      { transactionTypeId: 3, name: 'Sales tax', amountMinor: 1_125 },
    ],
    ...overrides,
  };
}

/** A nomad policy with the given transactions (a purchase alone unless told). */
export function policyOf(details: DetailRecord[] = [detailOf(1)]): PolicyRecord {
  return {
    id: 42,
    policyNumber: 'NMD-2026-000123',
    brandCode: 'nomad',
    partnerId: 1,
    customerUserId: 0,
    quoteId: 'q-1',
    plan: {
      planId: 400112,
      productId: 3,
      code: 'COMP',
      shortDescription: 'Comprehensive',
      longDescription: 'Comprehensive cover',
      underwriterCode: 'MGI',
      isAnnualMultiTrip: false,
      policyNumberPrefix: 'NMD',
      policyNumberFormat: '{prefix}-{yyyy}-{n:6}',
      jurisdictionCountryCode: 'US',
    },
    currency: { code: 'USD', symbol: '$', description: 'US dollar', minorUnits: 2 },
    statusId: 1,
    status: 'Active',
    sequenceNumber: details.length,
    presentationTimeZoneCode: 'America/New_York',
    destinations: { codes: ['JPN', 'KOR'], names: ['Japan', 'South Korea'] },
    excessMinor: 10_000,
    externalMemberships: [],
    policyDocumentAccessGuid: 'x',
    audit: audit('2026-11-21T10:00:00.000Z'),
    details,
  };
}

export const NOMAD_EN = {
  code: 'nomad',
  name: 'Nomad Global Travel Insurance',
  content: {
    EMERGENCYPHONE: '+44 20 3000 4000 (24/7)',
    CLAIMSURL: 'https://claims.nomad.example',
    RSPORTALURL: 'https://my.nomad.example',
    OPTIONDISCLAIMER: 'Add-ons are subject to the limits and exclusions of your policy wording.',
  },
};
export const NOMAD_ES = {
  code: 'nomad',
  name: 'Nomad Global Travel Insurance',
  content: { EMERGENCYPHONE: '+44 20 3000 4000 (24 horas, todos los días)' },
};
