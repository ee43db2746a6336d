import { beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { PolicyDetailList, PolicyDetailLongSummary, PolicySummary } from '../../src/policies/schemas.js';
import type { IssuedPolicy } from '../helpers/issued-policy.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { headersFor, issue, issueRequest, testPartnerId } from './fixtures.js';

const ISO_CALENDAR = { id: 'ISO', name: 'ISO', minYear: -9998, maxYear: 9999, eras: [{ name: 'BCE' }, { name: 'CE' }] };

describe(`policy summary and details over HTTP (${DIALECT})`, () => {
  const t = useTestApp();
  let policy: IssuedPolicy;
  let partnerA: number;
  beforeAll(async () => {
    partnerA = await testPartnerId(t(), 'brandau', 'A');
    policy = await issue(t().context.db, issueRequest({ partnerId: partnerA }));
  });

  const get = async (url: string, brand: 'brandau' | 'brandnz' = 'brandau', partner: 'A' | 'B' = 'A') =>
    t().app.inject({ method: 'GET', url, headers: await headersFor(t(), brand, partner) });

  it('returns the summary with every field the purchase supplied', async () => {
    const res = await get(`/policies/v1/brandau/policies/${policy.policyNumber}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(Value.Check(PolicySummary, body)).toBe(true);
    expect(Object.keys(body).sort()).toEqual(Object.keys(PolicySummary.properties).sort());
    expect(body).toMatchObject({
      brandCode: 'brandau',
      policyHeaderId: policy.policyHeaderId,
      policyDetailId: policy.policyDetailId,
      policyNumber: policy.policyNumber,
      sequenceNumber: 1,
      policyStatusId: 1,
      policyStatus: 'Active',
      detailStatus: 'Active',
      policyActionTypeId: 1,
      policyActionType: 'Purchase',
      plan: {
        planId: 31,
        productId: 7,
        saleCurrencyId: 36,
        code: 'COMP',
        underwriterCode: 'UWAU',
        isAnnualMultiTrip: false,
      },
      destinationRegion: 'Pacific',
      destinationCountries: 'New Zealand, Fiji',
      destinationCountryCodes: 'NZL,FJI',
      currency: { id: 36, code: 'AUD', symbol: '$', description: 'Australian dollar', hasMinorUnits: true },
      presentationTimeZoneCode: 'Australia/Sydney',
      policyIssuedAt: '2026-11-22T21:53:09.123Z',
      policyIssuedLocalDateTime: '2026-11-23T08:53:09.123',
      detailIssuedAt: '2026-11-22T21:53:09.123Z',
      departureAt: '2026-11-30T13:00:00.000Z',
      departureLocalDateTime: '2026-12-01T00:00:00.000',
      coverEndAt: '2026-12-14T12:59:59.000Z',
      coverEndLocalDateTime: '2026-12-14T23:59:59.000',
      address: {
        addressLine1: '1 George St',
        postalCode: '2000',
        provinceId: 2,
        provinceName: 'New South Wales',
        countryId: 13,
        countryName: 'Australia',
      },
      policyAudit: { createdAt: '2026-11-22T21:53:09.123Z', createdByUserId: 77, updatedByUserId: 77 },
      customerId: 501,
      transactionValueAggregateAmount: { policyHeaderId: policy.policyHeaderId, amount: 347 },
      displayTransactionValueAggregateAmount: '$347.00',
      authorizationPolicy: { planId: 31, partnerId: partnerA, customerUserId: 501 },
      policyDocumentAccessGuid: policy.policyDocumentAccessGuid,
      externalMemberships: [{ name: 'Frequent Flyer', code: 'FF', number: '12345678' }],
      excess: 100,
      binderId: 3,
      referencePolicyWordingId: 12,
    });
    const [primary, second] = body.travellers as Record<string, unknown>[];
    expect(primary).toMatchObject({
      guid: 'trav-1',
      displayOrder: 1,
      isPrimary: true,
      firstName: 'Ada',
      dateOfBirth: {
        calendar: ISO_CALENDAR,
        year: 1990,
        month: 1,
        day: 7,
        dayOfWeek: 'Sunday',
        yearOfEra: 1990,
        era: { name: 'CE' },
        dayOfYear: 7,
      },
      travelClear: {
        tamisReferenceNumber: 'TAMIS-1',
        isCovered: true,
        excess: 250,
        authorizedPerson: { firstName: 'Ada', dateOfBirth: { year: 1990 } },
      },
      authorizationPolicy: { partnerId: partnerA },
    });
    expect(typeof primary?.travellerId).toBe('number');
    expect(second).toMatchObject({ guid: 'trav-2', displayOrder: 2, isPrimary: false });
    expect(body.dependents).toEqual([
      expect.objectContaining({
        guid: 'dep-1',
        displayOrder: 1,
        firstName: 'Byron',
        dateOfBirth: expect.objectContaining({ dayOfWeek: 'Tuesday' }),
      }),
    ]);
  });

  it('returns the details as an array holding the purchase', async () => {
    const res = await get(`/policies/v1/brandau/policies/${policy.policyNumber}/details`);
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>[]>();
    expect(Value.Check(PolicyDetailList, body)).toBe(true);
    expect(body).toHaveLength(1);
    const [detail] = body;
    expect(Object.keys(detail!).sort()).toEqual(Object.keys(PolicyDetailLongSummary.properties).sort());
    expect(detail).toMatchObject({
      policyDetailId: policy.policyDetailId,
      policyDetailNumber: `${policy.policyNumber}-1`,
      status: 'Active',
      actionType: 'Purchase',
      ipAddress: '203.0.113.9',
      ipAddressCountry: 'AU',
      userAgent: 'curl/8.5',
      presentationTimeZoneCode: 'Australia/Sydney',
      createdAt: '2026-11-22T21:53:09.123Z',
      createdLocalDateTime: '2026-11-23T08:53:09.123',
      departureAt: '2026-11-30T13:00:00.000Z',
      coverEndLocalDateTime: '2026-12-14T23:59:59.000',
      coverDurationInDays: 14,
      financialSummary: {
        policyDetailId: policy.policyDetailId,
        transactionAmount: 347,
        premium: 320,
        discount: 20,
        footprintsDonation: 2,
        taxes: [
          { name: 'GST', amount: 30 },
          { name: 'Stamp duty', amount: 15 },
        ],
      },
      policyCombinedOptionLongSummary: {
        policyOptionLongSummaries: [
          expect.objectContaining({
            name: 'Cruise cover',
            description: 'Cover while at sea',
            optionTypeId: 4,
            planId: 31,
            policyDetailId: policy.policyDetailId,
          }),
          expect.objectContaining({ name: 'Specified items', optionTypeId: 9, displayOrder: 2 }),
        ],
        policySpecifiedItemOption: {
          specifiedItems: [
            {
              name: 'Camera',
              serialNumber: 'SN-123',
              itemValue: 1250,
              displayItemValue: '$1,250.00',
              currency: expect.objectContaining({ code: 'AUD' }),
            },
          ],
        },
        policyAdventureActivitiesOption: {
          adventureLevel: 'Level 2',
          adventureActivities: ['Skydiving', 'Scuba diving'],
        },
      },
      notes: [],
    });
    expect((detail!.travellers as unknown[]).length).toBe(2);
    expect((detail!.dependents as unknown[]).length).toBe(1);
  });

  it('hides the policy from another partner', async () => {
    for (const suffix of ['', '/details']) {
      const res = await get(`/policies/v1/brandau/policies/${policy.policyNumber}${suffix}`, 'brandau', 'B');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        validation: {
          isValid: false,
          errors: [
            {
              code: 'POLICY_NOT_FOUND',
              message: `Policy '${policy.policyNumber}' does not exist.`,
              property: 'policyNumber',
              value: policy.policyNumber,
            },
          ],
        },
      });
    }
  });

  it('answers 404 for an unknown number and for the policy under another brand', async () => {
    const unknown = await get('/policies/v1/brandau/policies/TIAU269999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().validation.errors[0].code).toBe('POLICY_NOT_FOUND');
    const otherBrand = await get(`/policies/v1/brandnz/policies/${policy.policyNumber}/details`, 'brandnz');
    expect(otherBrand.statusCode).toBe(404);
    expect(otherBrand.json().validation.errors[0].code).toBe('POLICY_NOT_FOUND');
    const badBrand = await t().app.inject({
      method: 'GET',
      url: `/policies/v1/acme/policies/${policy.policyNumber}`,
      headers: await headersFor(t(), 'brandau', 'A'),
    });
    expect(badBrand.statusCode).toBe(404);
    expect(badBrand.json().validation.errors[0].code).toBe('UNKNOWN_BRAND');
  });

  it('refuses a caller without credentials', async () => {
    const res = await t().app.inject({ method: 'GET', url: `/policies/v1/brandau/policies/${policy.policyNumber}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().validation.errors[0].code).toMatch(/UNAUTHENTICATED|TOKEN/);
  });
});
