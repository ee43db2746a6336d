import { randomUUID } from 'node:crypto';
import { findPartner } from '../../src/auth/accounts.js';
import { bearerFor, ensureTestUser, TEST_PARTNERS } from '../helpers/auth.js';
import type { TestApp } from '../helpers/app.js';
import type { BrandCode } from '../../src/kernel/brands.js';
import type { Db } from '../../src/db/database.js';
import type { PolicyIssueRequest } from '../../src/policies/issue-request.js';
import { issuePolicyOf, type IssuedPolicy } from '../helpers/issued-policy.js';

/** A complete purchase as the purchase flow would hand it to issuance. */
export function issueRequest(overrides: Partial<PolicyIssueRequest> = {}): PolicyIssueRequest {
  return {
    brandCode: 'brandau',
    partnerId: PARTNER_IDS.A,
    customerUserId: 501,
    createdByUserId: 77,
    quoteId: randomUUID(),
    plan: {
      planId: 31,
      productId: 7,
      planDisplayGroupId: 2,
      quotePanelTypeId: 1,
      code: 'COMP',
      shortDescription: 'Comprehensive',
      longDescription: 'Comprehensive cover for overseas trips',
      underwriterCode: 'UWAU',
      isAnnualMultiTrip: false,
      currency: { id: 36, code: 'AUD', symbol: '$', description: 'Australian dollar', minorUnits: 2 },
      policyNumberPrefix: 'TI',
      policyNumberFormat: '{prefix}{country}{yy}{seq:7}',
      jurisdictionCountryCode: 'AU',
    },
    homeAddress: {
      addressLine1: '1 George St',
      addressLine2: 'Level 3',
      postalCode: '2000',
      provinceId: 2,
      provinceCode: 'NSW',
      provinceName: 'New South Wales',
      countryId: 13,
      countryCode: 'AU',
      countryName: 'Australia',
    },
    presentationTimeZoneCode: 'Australia/Sydney',
    travellers: [
      {
        guid: 'trav-1',
        isPrimary: true,
        title: 'Ms',
        firstName: 'Ada',
        surname: 'Lovelace',
        age: 36,
        dateOfBirth: '1990-01-07',
        emailAddress: 'ada@example.com',
        landLinePhoneNumber: '+61 2 9000 0000',
        mobileNumber: '+61 400 000 000',
        travelClear: {
          tamisReferenceNumber: 'TAMIS-1',
          screeningDate: '2026-11-20',
          authorizedPerson: {
            firstName: 'Ada',
            surname: 'Lovelace',
            dateOfBirth: '1990-01-07',
            email: 'ada@example.com',
            phone: '+61 400 000 000',
          },
          isCovered: true,
          excessMinor: 25_000,
        },
      },
      { guid: 'trav-2', firstName: 'Charles', surname: 'Babbage', age: 40, dateOfBirth: '1986-12-26' },
    ],
    dependents: [
      { guid: 'dep-1', title: 'Mstr', firstName: 'Byron', surname: 'Lovelace', age: 8, dateOfBirth: '2018-05-01' },
    ],
    destinations: { codes: ['NZL', 'FJI'], names: ['New Zealand', 'Fiji'], region: 'Pacific' },
    departureDate: '2026-12-01',
    coverEndDate: '2026-12-14',
    amounts: {
      premium: 32_000,
      discount: 2_000,
      taxes: [
        { name: 'GST', amount: 3_000 },
        { name: 'Stamp duty', amount: 1_500 },
      ],
      donation: 200,
      total: 34_700,
    },
    options: [
      { optionTypeId: 4, name: 'Cruise cover', description: 'Cover while at sea', displayOrder: 1 },
      { optionTypeId: 9, name: 'Specified items', displayOrder: 2 },
    ],
    specifiedItems: [{ name: 'Camera', serialNumber: 'SN-123', valueMinor: 125_000 }],
    adventure: { level: 'Level 2', activities: ['Skydiving', 'Scuba diving'] },
    excessMinor: 10_000,
    externalMemberships: [{ name: 'Frequent Flyer', code: 'FF', number: '12345678' }],
    client: { ipAddress: '203.0.113.9', ipAddressCountry: 'AU', userAgent: 'curl/8.5' },
    paymentReference: 'pay_123',
    referencePolicyWordingId: 12,
    regulatoryWordingTranslationName: 'PDS AU 2026',
    binderId: 3,
    ...overrides,
  };
}

/** Issues through the purchase's issuing commit (test/helpers/issued-policy.ts). */
export function issue(
  db: Db,
  request: PolicyIssueRequest,
  now = new Date('2026-11-22T21:53:09.123Z'),
): Promise<IssuedPolicy> {
  return issuePolicyOf(db, request, now);
}

/** Partner ids of issue requests in tests that do not go through HTTP. */
export const PARTNER_IDS = { A: 101, B: 202 } as const;

/** The database id of test partner A or B (created with its user for `brand` when missing). */
export async function testPartnerId(t: TestApp, brand: BrandCode, partner: 'A' | 'B'): Promise<number> {
  await ensureTestUser(t, brand, partner);
  const found = await findPartner(t.context, TEST_PARTNERS[partner]);
  if (!found) throw new Error(`test partner ${partner} missing`);
  return found.id;
}

export function headersFor(t: TestApp, brand: BrandCode, partner: 'A' | 'B'): Promise<Record<string, string>> {
  return bearerFor(t, brand, partner);
}
