import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { emptyByDesign, FillRate } from '../helpers/contract/fill-rate.js';
import { walk } from '../screening/support.js';
import { answerChallenge, CARDS, NOW, planOf, purchaseBody, readyQuote } from '../purchases/support.js';

/**
 * Issue 30, "the contract's last unfilled fields": a walk that sends every input field the contract
 * names (spec §2.2, §2.3), buys, and reads back every read endpoint of the contract, then counts the
 * response fields (spec §2.4–§2.9, through the OpenAPI response schemas) that came back empty. Each
 * must be in the list of fields empty by design (docs/api-contract.md, with its reason), and each
 * field on that list must indeed be empty: the list can neither hide a gap nor go stale.
 */

// A public source address (X-Forwarded-For through a trusted loopback proxy): 81.2.69.142 is in the UK.
const getApp = useTestApp({ env: { DEMO_DATA: 'true', TRUST_PROXY: 'loopback' }, clock: () => NOW });
const FROM = { 'x-forwarded-for': '81.2.69.142', 'user-agent': 'FillRateWalk/1.0 (contract test)' };

function holders() {
  const holder = (guid: string, dateOfBirth: string, first: string, last: string, extra: object = {}) => ({
    guid,
    dateOfBirth,
    firstName: first,
    lastName: last,
    phoneNumber: '+61 400 000 000',
    emailAddress: `${first.toLowerCase()}@example.com`,
    residentIdentifier: `RES-${guid}`,
    travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: true, isOptedInForCover: true },
    ...extra,
  });
  return [
    holder('adult-1', '1984-05-02', 'Ada', 'Lovelace', { isPrimary: true, isDependent: false, age: 42 }),
    holder('adult-2', '1986-03-15', 'Charles', 'Babbage', { isPrimary: false }),
    holder('child-1', '2017-08-09', 'Byron', 'Lovelace', { isDependent: true }),
  ];
}

/** Every QuoteInput field of spec §2.2 with a meaningful value for brandau's Comprehensive plan. */
function fullInput(planId: number) {
  const address = (line: string) => ({
    addressLine1: `${line} George St`,
    addressLine2: 'Level 3',
    addressLine3: 'Suite 301',
    addressLine4: 'The Rocks',
    provinceCode: 'NSW',
    countryCode: 'AUS',
    postalCode: '2000',
  });
  return {
    cultureCode: 'en-AU',
    customerInterfaceId: 8,
    quoteType: 'SINGLETRIP',
    overrideDuplicateCheck: true,
    skipPersistence: false,
    planId,
    quoteReferencePlanId: planId,
    homeAddress: address('1'),
    alternateHomeAddress: address('2'),
    destinationCountryCodes: ['IDN', 'JPN'],
    departureDate: '2026-12-10',
    returnDate: '2026-12-23',
    campaignCode: 'BASUMMER15',
    partnerCode: 'PARTNERA',
    tripValue: 9000,
    footprintsDonation: { donationAmount: 5, donationProjectId: 1, donationAccountCode: 'FOOTPRINTS' },
    basicOptions: [
      { optionType: 'CRUISE', isOptedIn: true },
      { optionType: 'SNOWSPORTS', isOptedIn: true },
      { optionType: 'RENTALCAREXCESS', isOptedIn: true, optedInTotalValue: 5000, optedInOffsetValue: 0 },
    ],
    adventureActivitiesOption: { optionType: 'ADVENTUREACTIVITIES', adventureActivityIds: [101, 106] },
    specifiedItemOption: {
      optionType: 'SPECIFIEDITEMS',
      specifiedItems: [
        { guid: 'item-1', name: 'Canon EOS R6', itemValue: 3200, itemTypeId: 1, itemTypeCode: 'CAMERA' },
        { guid: 'item-2', name: 'MacBook Air', itemValue: 1800, itemTypeId: 2, itemTypeCode: 'LAPTOP' },
      ],
    },
    cancellationOption: { optionType: 'CANCELLATION', cancellationCoverLimit: 10000 },
    policyHolders: holders(),
    externalIdentifiers: {
      externalMembershipProviderId: 1,
      externalMembershipNumber: 'FF-123456',
      bookingReference: 'BK-2026-0042',
      marketingSource: 'newsletter',
    },
  };
}

describe(`the contract's response fields, filled in a full walk (${DIALECT})`, () => {
  it('every response field the contract names comes back filled, except those documented as empty by design', async () => {
    const t = getApp();
    const fill = new FillRate(t.app.swagger() as unknown as Record<string, unknown>);
    const headers = { ...(await bearerFor(t, 'brandau')), ...FROM };
    const get = async (operationId: string, url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      fill.record(operationId, res.json());
      return res.json<Record<string, unknown>>();
    };

    const token = await t.app.inject({
      method: 'POST',
      url: '/users/brandau/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'password',
        client_id: 'API',
        username: 'test-a.brandau@partners.test',
        password: 'Test-A-brandau-password',
        customerInterfaceId: '8',
        userTypeId: '4',
      }).toString(),
    });
    expect(token.statusCode).toBe(200);
    fill.record('issueToken', token.json());

    await get('getBaseQuoteConfig', '/products/v1/brandau/baseQuoteConfig?quoteType=SINGLETRIP');
    const plan = await planOf(t, 'brandau', 'COMP');
    const planBody = await get('getPlanByCode', '/products/v1/brandau/plans?planCode=COMP&partnerCode=PARTNERA');
    await get('getBrandContent', '/products/v1/brandau/brands?lang=en');
    await get('getBrandContentById', '/products/v1/brandau/brands/1');
    const contract = String(planBody.insuranceContractId);
    await get('getFeatureSwitches', `/products/v1/brandau/features/${contract}`);
    await get(
      'getPdsSummary',
      `/products/v2/brandau/insuranceContract/${contract}/pdsSummary?lang=en&countryCode=AUS&provinceCode=NSW&planId=${String(plan.planId)}`,
    );

    const clientInfo = {
      ipAddress: '81.2.69.142',
      userAgent: 'Mozilla/5.0 (walk)',
      referer: 'https://partner.example/',
    };
    const input = fullInput(plan.planId);
    const created = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/quote',
      headers,
      payload: { stage: 'BASEQUOTE', clientSessionId: 'session-42', clientInfo, input },
    });
    expect(created.statusCode).toBe(200);
    fill.record('createQuote', created.json());
    const id = created.json<{ id: string }>().id;

    // A refused value: the Notification carries what was sent and a detail.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/quote',
      headers,
      payload: { input: { ...input, campaignCode: 'NOSUCHCODE' } },
    });
    expect(refused.statusCode).toBe(200);
    fill.record('createQuote', refused.json());

    const updated = await t.app.inject({
      method: 'PUT',
      url: `/quotes/v2/brandau/quote/${id}`,
      headers,
      payload: { stage: 'DETAILS', clientSessionId: 'session-42', clientInfo, input },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    fill.record('updateQuote', updated.json());

    // Every traveller opted in is screened (a loading, an automatic cover, a child answered for by a parent),
    // then the quote is refreshed: its premium now holds the medical lines.
    const outcomes = { 'adult-1': 'TEST_COVERED', 'adult-2': 'TEST_AUTO_COVERED', 'child-1': 'TEST_COVERED' };
    for (const [guid, condition] of Object.entries(outcomes)) await walk(t, id, [condition], false, guid);
    const refreshed = await t.app.inject({
      method: 'PUT',
      url: `/quotes/v2/brandau/quote/${id}`,
      headers,
      payload: { stage: 'DETAILS', clientSessionId: 'session-42', clientInfo, input },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json<{ validation: { isValid: boolean } }>().validation.isValid, refreshed.body).toBe(true);
    fill.record('updateQuote', refreshed.json());

    const browserInfo = { color: '24', height: '900', width: '1440', tzOffset: '-660', javaEnabled: 'false' };
    const threeDs = {
      userAgent: 'Mozilla/5.0 (walk)',
      acceptHeader: 'text/html',
      acceptLanguage: 'en-AU',
      origin: 'https://partner.example/checkout',
      browserInfo,
    };
    const buy = async (threeDSRequestInfo: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/quotes/v2/brandau/purchase',
        headers,
        payload: {
          quote: {
            id,
            isPurchaseInitiated: true,
            stage: 'PAYMENT',
            clientInfo,
            customerUserId: 0,
            brandCode: 'brandau',
            input: {
              policyHolders: holders().map((h) => ({
                dateOfBirth: h.dateOfBirth,
                firstName: h.firstName,
                lastName: h.lastName,
                phoneNumber: h.phoneNumber,
                emailAddress: h.emailAddress,
                travelClearOption: h.travelClearOption,
                residentIdentifier: h.residentIdentifier,
              })),
              regulatoryDeclarations: plan.termIds.map((termConditionId) => ({ termConditionId, hasAgreed: true })),
            },
          },
          cardToken: { token: CARDS.threeDsChallenge, source: 'hosted-page' },
          threeDSRequestInfo,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      fill.record('purchaseQuote', res.json());
      return res.json<{ quote: { policyNumber?: string }; threeDSResponseInfo?: { threeDSResponse?: string } }>();
    };
    const challenged = await buy(threeDs);
    const url = challenged.threeDSResponseInfo?.threeDSResponse ?? '';
    await answerChallenge(t, url, 'approve');
    const bought = await buy({ ...threeDs, threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: url });
    const policyNumber = bought.quote.policyNumber ?? '';
    expect(policyNumber).toBeTruthy();

    await get('getQuote', `/quotes/v2/brandau/quote/${id}`);
    const summary = await get('getPolicySummary', `/policies/v1/brandau/policies/${policyNumber}`);
    const details = await get('getPolicyDetails', `/policies/v1/brandau/policies/${policyNumber}/details`);
    // The ids are the catalogue's (docs/api-contract.md "How the ids are filled").
    expect(summary).toMatchObject({
      currency: { id: 36, code: 'AUD' },
      address: { countryId: 36, provinceId: 3601, provinceName: 'New South Wales' },
      plan: { planId: plan.planId, planDisplayGroupId: 1001, saleCurrencyId: 36, quotePanelTypeId: 1 },
      binderId: 91002,
      referencePolicyWordingId: Number(contract),
      regulatoryWordingTranslationName: 'English',
      destinationRegion: 'ASIA',
    });
    expect((details as unknown as { ipAddressCountry?: string }[])[0]?.ipAddressCountry).toBe('GB');

    const byDesign = emptyByDesign();
    const empty = fill.empty;
    console.info(
      `contract fill rate (${DIALECT}): ${(fill.rate * 100).toFixed(1)} % of ${String(fill.fields.length)} response fields filled; ` +
        `${String(empty.length)} empty, all by design`,
    );
    expect(empty.filter((field) => !byDesign.has(field))).toEqual([]);
    expect([...byDesign.keys()].filter((field) => !empty.includes(field))).toEqual([]);
  });

  it.each([
    ['a public address behind the trusted proxy', { 'x-forwarded-for': '203.2.218.214' }, 'AU'],
    ['a private address', { 'x-forwarded-for': '10.1.2.3' }, undefined],
    ['the loopback connection itself', {}, undefined],
  ])('ipAddressCountry of a purchase without clientInfo, from %s', async (_name, forwarded, country) => {
    const t = getApp();
    const quote = await readyQuote(t);
    const headers = { ...(await bearerFor(t, 'brandau')), ...forwarded };
    const res = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/purchase',
      headers,
      payload: purchaseBody(quote, CARDS.approved),
    });
    expect(res.statusCode, res.body).toBe(200);
    const policyNumber = res.json<{ quote: { policyNumber: string } }>().quote.policyNumber;
    const details = await t.app.inject({
      method: 'GET',
      url: `/policies/v1/brandau/policies/${policyNumber}/details`,
      headers,
    });
    expect(details.json<{ ipAddressCountry?: string }[]>()[0]?.ipAddressCountry).toBe(country);
  });
});
