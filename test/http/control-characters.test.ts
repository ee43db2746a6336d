import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor, ensureTestUser } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { books, CARDS, NOW, purchase, purchaseBody, readyQuote, type PurchaseAnswer } from '../purchases/support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

interface ErrorBody {
  validation: { isValid: false; errors: { code: string; property?: string; value?: string; tokens?: object }[] };
}

const refusal = (property: string, place: string) => ({
  validation: {
    isValid: false,
    errors: [expect.objectContaining({ code: 'CONTROL_CHARACTER_REFUSED', property, tokens: { in: place } })],
  },
});

const TRIP = {
  quoteType: 'SINGLETRIP',
  homeAddress: { countryCode: 'AUS', provinceCode: 'NSW' },
  destinationCountryCodes: ['IDN'],
  departureDate: '2026-12-10',
  returnDate: '2026-12-23',
  policyHolders: [{ age: 40, isPrimary: true }],
};

describe(`control characters are refused before anything is stored or charged (${DIALECT})`, () => {
  it('token endpoint: a control character in any form field is 400 invalid_request naming the field', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'brandau');
    const form = {
      grant_type: 'password',
      client_id: 'API',
      username: login,
      password,
      customerInterfaceId: '8',
      userTypeId: '4',
    };
    for (const [field, bad] of [
      ['username', `${login}\u0000`],
      ['password', `${password}\u0001`],
      ['client_id', 'A\u007fPI'],
      ['grant_type', 'password\n'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/users/brandau/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...form, [field]: bad }).toString(),
      });
      expect(res.statusCode, field).toBe(400);
      expect(res.json()).toEqual({
        error: 'invalid_request',
        error_description: expect.stringContaining(`'${field}'`),
      });
    }
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/users/brandau/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&client_id=API&refresh_token=abc%00def',
    });
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('quote fields and property names: 400 CONTROL_CHARACTER_REFUSED naming the path, never echoing the value', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau');
    const cases: [unknown, string][] = [
      [
        { ...TRIP, policyHolders: [{ age: 40, isPrimary: true, firstName: 'An\u0000na' }] },
        'input.policyHolders[0].firstName',
      ],
      [{ ...TRIP, departureDate: '2026-12-10\t' }, 'input.departureDate'],
      [
        { ...TRIP, homeAddress: { countryCode: 'AUS', addressLine1: '1 George St\r\nLine 2' } },
        'input.homeAddress.addressLine1',
      ],
      [{ ...TRIP, ['odd\u0000key']: 1 }, 'input["odd\\u0000key"]'],
    ];
    for (const [input, property] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/quotes/v2/brandau/quote', headers, payload: { input } });
      expect(res.statusCode, property).toBe(400);
      const body = res.json<ErrorBody>();
      expect(body, property).toEqual(refusal(property, 'body'));
      expect(body.validation.errors[0]?.value).toBeUndefined();
    }
    const count = await t.context.db
      .selectFrom('quote')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(count?.n)).toBe(0);
  });

  it('path and query parameters', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau');
    const path = await t.app.inject({ method: 'GET', url: '/quotes/v2/brandau/quote/abc%00def', headers });
    expect(path.statusCode).toBe(400);
    expect(path.json()).toEqual(refusal('quoteId', 'path'));
    const put = await t.app.inject({
      method: 'PUT',
      url: '/quotes/v2/brandau/quote/abc%01',
      headers,
      payload: { input: TRIP },
    });
    expect(put.json()).toEqual(refusal('quoteId', 'path'));
    const query = await t.app.inject({ method: 'GET', url: '/products/v1/brandau/plans?planCode=CO%00MP', headers });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toEqual(refusal('planCode', 'query'));
  });

  it('headers the application reads (User-Agent, Idempotency-Key); a tab, which HTTP allows, passes', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau');
    for (const [name, value] of [
      ['user-agent', 'agent\u0000'],
      ['idempotency-key', 'key\u0001'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/quotes/v2/brandau/quote',
        headers: { ...headers, [name]: value },
        payload: { input: TRIP },
      });
      expect(res.statusCode, name).toBe(400);
      expect(res.json(), name).toEqual(refusal(name, 'header'));
    }
    const tab = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/quote',
      headers: { ...headers, 'user-agent': 'agent\tversion' },
      payload: { input: TRIP },
    });
    expect(tab.statusCode).toBe(200);
  });

  it('purchase: a NUL in a holder name is refused before the card is authorised or the key claimed', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const body = purchaseBody(quote, CARDS.approved);
    (body.quote.input as Record<string, unknown>).policyHolders = [{ firstName: 'Ada\u0000' }];
    const refused = await purchase(t, body, { key: 'control-characters-1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(refusal('quote.input.policyHolders[0].firstName', 'body'));
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, authorisations: 0 });
    // Nothing was claimed: the corrected request with the same key buys the quote.
    const fixed = purchaseBody(quote, CARDS.approved);
    const res = await purchase(t, fixed, { key: 'control-characters-1' });
    expect(res.statusCode).toBe(200);
    expect(res.json<PurchaseAnswer>().paymentResult).toBe('APPROVED');
  });

  it('purchase: a lone surrogate in the card token is 400 ILL_FORMED_TEXT_REFUSED on both engines, nothing charged', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    for (const [field, property] of [
      ['token', 'cardToken.token'],
      ['source', 'cardToken.source'],
    ] as const) {
      const body = purchaseBody(quote, CARDS.approved);
      (body.cardToken as Record<string, unknown>)[field] = 'tok\ud800';
      const refused = await purchase(t, body, { key: `surrogate-${field}` });
      expect(refused.statusCode, field).toBe(400);
      expect(refused.json(), field).toEqual({
        validation: {
          isValid: false,
          errors: [expect.objectContaining({ code: 'ILL_FORMED_TEXT_REFUSED', property, tokens: { in: 'body' } })],
        },
      });
    }
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, authorisations: 0 });
  });

  it('a body nested 10,000 levels deep is 400 BODY_TOO_DEEP on purchase with an Idempotency-Key, nothing claimed', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const body = JSON.stringify(purchaseBody(quote, CARDS.approved));
    const deep = `${body.slice(0, -1)},"zzz":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/purchase',
      headers: {
        ...(await bearerFor(t, 'brandau', 'A')),
        'content-type': 'application/json',
        'idempotency-key': 'deep-1',
      },
      payload: deep,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().validation.errors[0]).toMatchObject({
      code: 'BODY_TOO_DEEP',
      property: `zzz${'[0]'.repeat(31)}`,
    });
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, authorisations: 0 });
    const fixed = await purchase(t, purchaseBody(quote, CARDS.approved), { key: 'deep-1' });
    expect(fixed.statusCode).toBe(200);
  });
});
