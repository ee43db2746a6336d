import { describe, expect, it } from 'vitest';
import { findPartner } from '../../src/auth/accounts.js';
import { useTestApp } from '../helpers/app.js';
import { testLogin } from '../helpers/auth.js';
import { baliTrip, fixturePorts, NOW, PLANS } from './fixtures.js';
import { asPartner } from './partners.js';

const ports = fixturePorts();
const getApp = useTestApp({ clock: () => NOW, appOptions: { quotePorts: ports } });
const path = (brand = 'brandau') => `/quotes/v2/${brand}/quote`;

async function create(body: object, partner: 'A' | 'B' = 'A', brand: 'brandau' | 'brandnz' = 'brandau') {
  const t = getApp();
  return t.app.inject({ method: 'POST', url: path(brand), headers: await asPartner(t, brand, partner), payload: body });
}

describe('POST /quotes/v2/{brandCode}/quote', () => {
  it('prices the Bali trip for every brandau plan in force, with taxes itemised', async () => {
    const res = await create({ input: baliTrip() });
    expect(res.statusCode).toBe(200);
    const quote = res.json();
    expect(quote.validation).toEqual({ isValid: true, errors: [] });
    expect(quote).toMatchObject({
      isNew: true,
      stage: 'BASEQUOTE',
      brandCode: 'brandau',
      isPurchased: false,
      evaluatedAt: NOW.toISOString(),
    });
    expect(quote.id).toMatch(/^[0-9a-f-]{36}$/);
    const inForce = PLANS.filter(
      (p) => p.quoteType === 'SINGLETRIP' && p.homeCountryCodes.includes('AUS') && !p.effectiveToDate,
    ).map((p) => p.planId);
    expect(quote.prices.map((p: { planId: number }) => p.planId).sort()).toEqual(inForce.sort());
    for (const price of quote.prices) {
      expect(price.basePrice.taxComponents.map((t: { taxName: string }) => t.taxName)).toEqual([
        'GST',
        'Stamp Duty (NSW)',
      ]);
      const taxes = price.basePrice.taxComponents.reduce((s: number, t: { taxAmount: number }) => s + t.taxAmount, 0);
      expect(price.totalPrice).toBeCloseTo(price.basePrice.price, 2);
      expect(taxes).toBeGreaterThan(0);
    }
    // Minor units from the engine become major-unit doubles: 25000 cents → 250.
    expect(quote.prices[0].standardExcess).toBe(250);
    const comp = quote.priceResults.find((r: { planId: number }) => r.planId === 101);
    expect(comp.basePriceResult.priceDetails.map((d: { age: number }) => d.age)).toEqual([42, 40, 9]);
    expect(quote.audit).toMatchObject({
      createdByUserId: expect.any(Number),
      createdByUsername: testLogin('brandau', 'A'),
      createdAt: NOW.toISOString(),
    });
    expect(quote.audit.createdByUserId).toBeGreaterThan(0);
    expect(quote.input.validation).toEqual({ isValid: true, errors: [] });
    // The pricing port got the rating facts the quotes area derived.
    expect(ports.pricingRequests.at(-1)).toMatchObject({
      homeCountryCode: 'AUS',
      provinceCode: 'NSW',
      regionCodes: ['ASIA'],
      coverDays: 14,
      quoteDate: '2026-11-22',
    });
  });

  it('refuses a sanctioned destination with a Notification and no prices (200, isValid false)', async () => {
    const res = await create({ input: { ...baliTrip(), destinationCountryCodes: ['IDN', 'PRK'] } });
    expect(res.statusCode).toBe(200);
    const quote = res.json();
    expect(quote.validation.isValid).toBe(false);
    expect(quote.validation.errors).toContainEqual(
      expect.objectContaining({
        code: 'DESTINATION_SANCTIONED',
        property: 'input.destinationCountryCodes[1]',
        value: 'PRK',
        title: 'error',
      }),
    );
    expect(quote.prices).toEqual([]);
    expect(quote.stage).toBe('INITIAL');
  });

  it('warns about an unsafe destination but still prices (isValid stays true)', async () => {
    const quote = (await create({ input: { ...baliTrip(), destinationCountryCodes: ['UKR'] } })).json();
    expect(quote.validation.isValid).toBe(true);
    expect(quote.validation.errors).toEqual([
      expect.objectContaining({ code: 'DESTINATION_UNSAFE', title: 'warning' }),
    ]);
    expect(quote.prices.length).toBeGreaterThan(0);
  });

  it("puts each holder's problems on that holder's own validation", async () => {
    const input = baliTrip();
    input.policyHolders[1] = { guid: 'adult-2', dateOfBirth: '2026-02-30' };
    const quote = (await create({ input })).json();
    expect(quote.validation.isValid).toBe(false);
    expect(quote.input.policyHolders[1].validation.errors).toEqual([
      expect.objectContaining({ code: 'INVALID_DATE', property: 'input.policyHolders[1].dateOfBirth' }),
    ]);
    expect(quote.input.policyHolders[0].validation).toEqual({ isValid: true, errors: [] });
  });

  it("carries the engine's notifications onto the option they concern", async () => {
    const quote = (
      await create({
        input: {
          ...baliTrip(),
          basicOptions: [
            { optionType: 'CRUISE', isOptedIn: true },
            { optionType: 'JETPACK', isOptedIn: true },
          ],
        },
      })
    ).json();
    expect(quote.validation.isValid).toBe(false);
    expect(quote.input.basicOptions[0].validation).toEqual({ isValid: true, errors: [] });
    expect(quote.input.basicOptions[1].validation.errors).toEqual([
      expect.objectContaining({ code: 'OPTION_NOT_OFFERED', property: 'input.basicOptions[1].optionType' }),
    ]);
    expect(quote.stage).toBe('INITIAL');
  });

  it('answers 400 only for wrong JSON types', async () => {
    const res = await create({ input: { ...baliTrip(), planId: 'cheap' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().validation.errors[0]).toMatchObject({ code: 'INVALID_TYPE', property: 'input.planId' });
    const missing = await create({ stage: 'INITIAL' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().validation.errors[0]).toMatchObject({ code: 'FIELD_REQUIRED', property: 'input' });
  });

  it('ignores server-owned fields sent in the body', async () => {
    const quote = (
      await create({
        id: 'mine',
        isPurchased: true,
        policyNumber: 'P-1',
        prices: [{ planId: 1, totalPrice: 1 }],
        input: baliTrip(),
      })
    ).json();
    expect(quote.id).not.toBe('mine');
    expect(quote.isPurchased).toBe(false);
    expect(quote.policyNumber).toBeUndefined();
    expect(quote.prices.every((p: { planId: number }) => p.planId !== 1)).toBe(true);
  });

  it('with skipPersistence prices without storing and gives no id', async () => {
    const t = getApp();
    const before = await t.context.db
      .selectFrom('quote')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    const quote = (await create({ input: { ...baliTrip(), skipPersistence: true } })).json();
    const after = await t.context.db
      .selectFrom('quote')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(quote.id).toBeUndefined();
    expect(quote.prices.length).toBe(3);
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('gives distinct ids ordered by time, each with a random part no neighbour shares (UUID version 7)', async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => (await create({ input: baliTrip() })).json().id as string));
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The last 48 bits are drawn afresh for each id, even within one millisecond.
    expect(new Set(ids.map((id) => id.slice(-12))).size).toBe(3);
  });
});

describe('GET and PUT /quotes/v2/{brandCode}/quote/{quoteId}', () => {
  it('answers a create with the same bytes a read of the quote gives, but for isNew', async () => {
    const t = getApp();
    const holders = [{ guid: 'a1', age: 42, isPrimary: true, firstName: 'Ann', extra: 'dropped' }, { age: 40 }];
    const body = {
      input: { ...baliTrip(), policyHolders: holders, unknownField: 1 },
      clientSessionId: 'sess-bytes',
      clientInfo: { ipAddress: '203.0.113.9' },
    };
    const created = await create(body);
    expect(created.statusCode).toBe(200);
    const { id } = created.json<{ id: string }>();
    const read = await t.app.inject({
      method: 'GET',
      url: `${path()}/${id}`,
      headers: await asPartner(t, 'brandau', 'A'),
    });
    expect(read.body).toBe(created.body.replace('"isNew":true', '"isNew":false'));
  });

  it('reads a stored quote back; another partner, another brand or an unknown id get 404', async () => {
    const t = getApp();
    const created = (await create({ input: baliTrip(), clientSessionId: 'sess-1' })).json();
    const own = await t.app.inject({
      method: 'GET',
      url: `${path()}/${created.id}`,
      headers: await asPartner(t, 'brandau', 'A'),
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      id: created.id,
      isNew: false,
      stage: 'BASEQUOTE',
      clientSessionId: 'sess-1',
      prices: created.prices,
      hasConfigChanged: false,
    });

    const other = await t.app.inject({
      method: 'GET',
      url: `${path()}/${created.id}`,
      headers: await asPartner(t, 'brandau', 'B'),
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().validation.errors[0]).toMatchObject({ code: 'QUOTE_NOT_FOUND', property: 'quoteId' });
    const otherPut = await t.app.inject({
      method: 'PUT',
      url: `${path()}/${created.id}`,
      headers: await asPartner(t, 'brandau', 'B'),
      payload: { input: baliTrip() },
    });
    expect(otherPut.statusCode).toBe(404);
    const otherBrand = await t.app.inject({
      method: 'GET',
      url: `${path('brandnz')}/${created.id}`,
      headers: await asPartner(t, 'brandnz', 'A'),
    });
    expect(otherBrand.statusCode).toBe(404);
    const unknown = await t.app.inject({
      method: 'GET',
      url: `${path()}/00000000-0000-4000-8000-000000000000`,
      headers: await asPartner(t, 'brandau', 'A'),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('re-evaluates with a chosen plan, moves to OPTIONS and keeps the creator in the audit', async () => {
    const t = getApp();
    const created = (await create({ input: baliTrip() })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url: `${path()}/${created.id}`,
      headers: await asPartner(t, 'brandau', 'A'),
      payload: {
        stage: 'OPTIONS',
        input: { ...baliTrip(), planId: 102, basicOptions: [{ optionType: 'CRUISE', isOptedIn: true }] },
      },
    });
    expect(res.statusCode).toBe(200);
    const quote = res.json();
    expect(quote).toMatchObject({ id: created.id, isNew: false, stage: 'OPTIONS', hasConfigChanged: false });
    expect(quote.input.planId).toBe(102);
    expect(quote.prices.find((p: { planId: number }) => p.planId === 102).basicOptionPrices[0]).toMatchObject({
      optionType: 'CRUISE',
      price: 50,
    });
    expect(quote.audit).toMatchObject({
      createdAt: created.audit.createdAt,
      createdByUserId: created.audit.createdByUserId,
      updatedByUserId: created.audit.createdByUserId,
    });
  });

  it('refuses to advance a stage without its requirements (200, isValid false, stage kept)', async () => {
    const t = getApp();
    const created = (await create({ input: baliTrip() })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url: `${path()}/${created.id}`,
      headers: await asPartner(t, 'brandau', 'A'),
      payload: { stage: 'DETAILS', input: { ...baliTrip(), planId: 101 } },
    });
    const quote = res.json();
    expect(res.statusCode).toBe(200);
    expect(quote.stage).toBe('OPTIONS');
    expect(quote.validation.isValid).toBe(false);
    expect(quote.validation.errors).toContainEqual(
      expect.objectContaining({
        code: 'STAGE_REQUIREMENT_MISSING',
        property: 'input.policyHolders[0].firstName',
        tokens: { stage: 'DETAILS' },
      }),
    );
    expect(quote.validation.errors).toContainEqual(
      expect.objectContaining({
        code: 'STAGE_NOT_REACHED',
        property: 'stage',
        tokens: { requested: 'DETAILS', reached: 'OPTIONS' },
      }),
    );
  });

  it('says hasConfigChanged when the version that priced the quote is no longer in force', async () => {
    const t = getApp();
    const created = (await create({ input: baliTrip() })).json();
    const url = `${path()}/${created.id}`;
    ports.version = 'brand-2026.12-rates-8';
    try {
      const read = await t.app.inject({ method: 'GET', url, headers: await asPartner(t, 'brandau', 'A') });
      expect(read.json().hasConfigChanged).toBe(true);
      const put = await t.app.inject({
        method: 'PUT',
        url,
        headers: await asPartner(t, 'brandau', 'A'),
        payload: { input: baliTrip() },
      });
      expect(put.json().hasConfigChanged).toBe(true);
      const reread = await t.app.inject({ method: 'GET', url, headers: await asPartner(t, 'brandau', 'A') });
      expect(reread.json().hasConfigChanged).toBe(false);
    } finally {
      ports.version = 'brand-2026.11-rates-7';
    }
  });

  it('answers 409 for a change to a purchased quote, and for one whose purchase is running', async () => {
    const t = getApp();
    for (const column of ['is_purchased', 'is_purchase_initiated'] as const) {
      const created = (await create({ input: baliTrip() })).json();
      await t.context.db
        .updateTable('quote')
        .set({ [column]: 1 })
        .where('public_id', '=', created.id)
        .execute();
      const res = await t.app.inject({
        method: 'PUT',
        url: `${path()}/${created.id}`,
        headers: await asPartner(t, 'brandau', 'A'),
        payload: { input: baliTrip() },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().validation.errors[0].code).toBe(
        column === 'is_purchased' ? 'QUOTE_PURCHASED' : 'QUOTE_PURCHASE_INITIATED',
      );
    }
  });

  it('with skipPersistence on PUT answers the new evaluation but keeps the stored one', async () => {
    const t = getApp();
    const created = (await create({ input: baliTrip() })).json();
    const url = `${path()}/${created.id}`;
    const headers = await asPartner(t, 'brandau', 'A');
    const whatIf = (
      await t.app.inject({
        method: 'PUT',
        url,
        headers,
        payload: { input: { ...baliTrip(), returnDate: '2027-01-10', skipPersistence: true } },
      })
    ).json();
    expect(whatIf.input.returnDate).toBe('2027-01-10');
    const stored = (await t.app.inject({ method: 'GET', url, headers })).json();
    expect(stored.input.returnDate).toBe('2026-12-23');
  });
});

describe('what is stored', () => {
  it('stores the contract fields only: fields outside it are dropped', async () => {
    const t = getApp();
    const created = (
      await create({
        input: { ...baliTrip(), notInContract: 'x'.repeat(1000), policyHolders: [{ age: 40, shoeSize: 44 }] },
      })
    ).json();
    const row = await t.context.db
      .selectFrom('quote')
      .select(['input_json', 'partner_id', 'brand_code'])
      .where('public_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.input_json).not.toContain('notInContract');
    expect(row.input_json).not.toContain('shoeSize');
    expect(row).toMatchObject({
      partner_id: (await findPartner(getApp().context, 'PARTNERA'))?.id,
      brand_code: 'brandau',
    });
  });
});
