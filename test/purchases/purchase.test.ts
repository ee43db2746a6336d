import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import {
  answerChallenge,
  books,
  CARDS,
  NOW,
  purchase,
  purchaseBody,
  readyQuote,
  type PurchaseAnswer,
} from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`purchase: every sandbox card (${DIALECT})`, () => {
  it('approved: issues the policy, captures the server price once, and the policy reads back with the same amounts', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const res = await purchase(t, purchaseBody(quote, CARDS.approved));
    expect(res.statusCode).toBe(200);
    const body = res.json<PurchaseAnswer>();
    expect(body.validation).toEqual({ isValid: true, errors: [] });
    expect(body).toMatchObject({
      paymentResult: 'APPROVED',
      paymentMethod: 'CARD',
      cardToken: { source: 'hosted-page', token: '****oved' },
    });
    expect(body.paymentIds).toMatch(/^sbx_pay_/);
    expect(body.quote).toMatchObject({ id: quote.id, isPurchased: true, isPurchaseInitiated: true });
    expect(body.quote.policyNumber).toMatch(/^BACAU26\d{7}$/);
    expect(JSON.stringify(body)).not.toContain(CARDS.approved);
    expect(await books(t, quote.id)).toMatchObject({
      policies: 1,
      captures: 1,
      capturedMinor: Math.round(quote.totalPrice * 100),
    });

    const headers = await bearerFor(t, 'brandau');
    const summary = await t.app.inject({
      method: 'GET',
      url: `/policies/v1/brandau/policies/${body.quote.policyNumber!}`,
      headers,
    });
    expect(summary.statusCode).toBe(200);
    expect(JSON.stringify(summary.json())).toContain(String(quote.totalPrice));
    const details = await t.app.inject({
      method: 'GET',
      url: `/policies/v1/brandau/policies/${body.quote.policyNumber!}/details`,
      headers,
    });
    expect(details.statusCode).toBe(200);
    const detail = details.json<
      {
        policyDetailNumber?: string;
        financialSummary?: { transactionAmount?: number; premium?: number; discount?: number };
      }[]
    >()[0]!;
    expect(detail.policyDetailNumber).toBe(`${body.quote.policyNumber!}-1`);
    expect(detail.financialSummary?.transactionAmount).toBe(quote.totalPrice);
    expect(detail.financialSummary?.premium).toBeGreaterThan(0);

    const again = await purchase(t, purchaseBody(quote, CARDS.approved));
    expect(again.statusCode).toBe(409);
    expect(again.json().validation.errors[0].code).toBe('QUOTE_PURCHASED');
    const read = await t.app.inject({ method: 'GET', url: `/quotes/v2/brandau/quote/${quote.id}`, headers });
    expect(read.json()).toMatchObject({ isPurchased: true, policyNumber: body.quote.policyNumber });
  });

  it('approved: the answer shows the bought quote exactly as it now reads back', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const body = (await purchase(t, purchaseBody(quote, CARDS.approved))).json<PurchaseAnswer>();
    const headers = await bearerFor(t, 'brandau');
    const read = await t.app.inject({ method: 'GET', url: `/quotes/v2/brandau/quote/${quote.id}`, headers });
    expect(body.quote).toEqual(read.json());
  });

  it.each([
    [CARDS.declined, 'DECLINED', 'DO_NOT_HONOUR', 'PAYMENT_DECLINED'],
    [CARDS.insufficientFunds, 'INSUFFICIENT_FUNDS', 'INSUFFICIENT_FUNDS', 'PAYMENT_DECLINED'],
    [CARDS.gatewayError, 'GATEWAY_ERROR', 'SANDBOX_GATEWAY_ERROR', 'PAYMENT_GATEWAY_ERROR'],
    ['tok_unknown', 'DECLINED', 'INVALID_CARD_TOKEN', 'PAYMENT_DECLINED'],
  ])(
    '%s: 200 with paymentResult %s and a Notification, nothing charged, and another card can still buy',
    async (card, result, reason, code) => {
      const t = getApp();
      const quote = await readyQuote(t);
      const res = await purchase(t, purchaseBody(quote, card));
      expect(res.statusCode).toBe(200);
      const body = res.json<PurchaseAnswer>();
      expect(body.paymentResult).toBe(result);
      expect(body.validation.isValid).toBe(false);
      expect(body.validation.errors).toEqual([
        expect.objectContaining({ code, tokens: expect.objectContaining({ reason }) }),
      ]);
      expect(body.quote).toMatchObject({ isPurchased: false, isPurchaseInitiated: false });
      expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0 });

      const retry = await purchase(t, purchaseBody(quote, CARDS.approved));
      expect(retry.json<PurchaseAnswer>().paymentResult).toBe('APPROVED');
      expect(await books(t, quote.id)).toMatchObject({ policies: 1, captures: 1 });
    },
  );

  it('3-D Secure frictionless: approved with threeDSStatus FRICTIONLESS', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const body = (await purchase(t, purchaseBody(quote, CARDS.threeDsFrictionless))).json<PurchaseAnswer>();
    expect(body).toMatchObject({
      paymentResult: 'APPROVED',
      threeDSResponseInfo: { threeDSStatus: 'FRICTIONLESS' },
      quote: { isPurchased: true },
    });
    expect(await books(t, quote.id)).toMatchObject({ policies: 1, captures: 1 });
  });

  it('3-D Secure challenge: nothing charged until the cardholder approves and the partner continues with threeDSRequestInfo', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const first = (await purchase(t, purchaseBody(quote, CARDS.threeDsChallenge))).json<PurchaseAnswer>();
    expect(first).toMatchObject({
      paymentResult: 'THREEDS_CHALLENGE_REQUIRED',
      threeDSResponseInfo: { threeDSStatus: 'CHALLENGE_REQUIRED', threeDSRequestPattern: 'REDIRECT' },
    });
    expect(first.validation.isValid).toBe(true);
    expect(first.quote).toMatchObject({ isPurchased: false, isPurchaseInitiated: true });
    const url = first.threeDSResponseInfo!.threeDSResponse!;
    expect(url).toMatch(/\/sandbox\/3ds\/sbx_3ds_/);
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0, authorisations: 0 });

    // Another purchase of the same quote while the challenge waits is refused.
    expect((await purchase(t, purchaseBody(quote, CARDS.approved))).statusCode).toBe(409);
    const continuation = purchaseBody(quote, CARDS.threeDsChallenge, {
      threeDSRequestInfo: { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: url },
    });
    // Continuing before the cardholder answered: the same challenge again.
    expect((await purchase(t, continuation)).json<PurchaseAnswer>().paymentResult).toBe('THREEDS_CHALLENGE_REQUIRED');

    await answerChallenge(t, url, 'approve');
    const done = (await purchase(t, continuation)).json<PurchaseAnswer>();
    expect(done).toMatchObject({
      paymentResult: 'APPROVED',
      paymentIds: first.paymentIds,
      threeDSResponseInfo: { threeDSStatus: 'CHALLENGE_COMPLETED' },
      quote: { isPurchased: true },
    });
    expect(await books(t, quote.id)).toMatchObject({ policies: 1, captures: 1 });
  });

  it('3-D Secure challenge declined by the cardholder: DECLINED, quote released', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const first = (await purchase(t, purchaseBody(quote, CARDS.threeDsChallenge))).json<PurchaseAnswer>();
    const url = first.threeDSResponseInfo!.threeDSResponse!;
    await answerChallenge(t, url, 'decline');
    const wrong = (
      await purchase(
        t,
        purchaseBody(quote, CARDS.threeDsChallenge, {
          threeDSRequestInfo: { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: 'sbx_3ds_AAAAAAAAAAAAAAAA' },
        }),
      )
    ).json<PurchaseAnswer>();
    expect(wrong.validation.errors[0]?.code).toBe('THREEDS_REQUEST_MISMATCH');
    const done = (
      await purchase(
        t,
        purchaseBody(quote, CARDS.threeDsChallenge, {
          threeDSRequestInfo: { threeDSStatus: 'CHALLENGE_FAILED', threeDSRequest: url },
        }),
      )
    ).json<PurchaseAnswer>();
    expect(done.paymentResult).toBe('DECLINED');
    expect(done.validation.errors[0]).toMatchObject({
      code: 'PAYMENT_DECLINED',
      tokens: { reason: 'THREEDS_CHALLENGE_FAILED' },
    });
    expect(done.quote).toMatchObject({ isPurchased: false, isPurchaseInitiated: false });
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0 });
  });
});

describe(`purchase: rules and refusals (${DIALECT})`, () => {
  it("missing quote.id → 400 naming quote.id; another partner's or an unknown quote → 404", async () => {
    const t = getApp();
    // Both are required in the schema (and so in the OpenAPI document), named where they are missing.
    const missing = await purchase(t, { cardToken: { token: CARDS.approved } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().validation.errors[0]).toMatchObject({ code: 'FIELD_REQUIRED', property: 'quote' });
    const noId = await purchase(t, { quote: { input: {} }, cardToken: { token: CARDS.approved } });
    expect(noId.statusCode).toBe(400);
    expect(noId.json().validation.errors[0]).toMatchObject({ code: 'FIELD_REQUIRED', property: 'quote.id' });
    const quote = await readyQuote(t);
    for (const [options, id] of [
      [{ partner: 'B' as const }, quote.id],
      [{}, '00000000-0000-4000-8000-000000000000'],
      [{ brand: 'brandnz' as const }, quote.id],
    ] as const) {
      const res = await purchase(t, purchaseBody({ ...quote, id }, CARDS.approved), options);
      expect(res.statusCode).toBe(404);
      expect(res.json().validation.errors[0].code).toBe('QUOTE_NOT_FOUND');
    }
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0 });
  });

  it('a card number anywhere in the body → 400 CARD_NUMBER_REFUSED, never echoed', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const res = await purchase(t, purchaseBody(quote, '4111 1111 1111 1111'), { key: 'card-number-key' });
    expect(res.statusCode).toBe(400);
    expect(res.json().validation.errors[0]).toMatchObject({ code: 'CARD_NUMBER_REFUSED', property: 'cardToken.token' });
    expect(res.body).not.toContain('4111');
    const keys = await t.context.db
      .selectFrom('idempotency_key')
      .select('id')
      .where('idempotency_key', '=', 'card-number-key')
      .execute();
    expect(keys).toEqual([]);
  });

  it('missing declarations, a changed date of birth or no card token: Notifications, no charge', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    expect(quote.termIds.length).toBeGreaterThan(1);
    const partial = purchaseBody({ ...quote, termIds: quote.termIds.slice(1) }, CARDS.approved);
    const res = (await purchase(t, partial)).json<PurchaseAnswer>();
    expect(res.validation.isValid).toBe(false);
    expect(res.validation.errors).toEqual([
      expect.objectContaining({
        code: 'DECLARATION_NOT_AGREED',
        tokens: { termConditionId: String(quote.termIds[0]) },
      }),
    ]);
    expect(res.paymentResult).toBeUndefined();

    const dob = purchaseBody(quote, CARDS.approved);
    (dob.quote.input as Record<string, unknown>).policyHolders = [{ dateOfBirth: '1990-01-01' }];
    expect((await purchase(t, dob)).json<PurchaseAnswer>().validation.errors).toEqual([
      expect.objectContaining({ code: 'DATE_OF_BIRTH_CHANGED', property: 'quote.input.policyHolders[0].dateOfBirth' }),
    ]);
    const noCard = { quote: purchaseBody(quote, '').quote };
    expect((await purchase(t, noCard)).json<PurchaseAnswer>().validation.errors).toEqual([
      expect.objectContaining({ property: 'cardToken.token' }),
    ]);
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0, authorisations: 0 });
  });

  it('a quote not at DETAILS is not bought; holder contact details in the body complete the stored holders; price and status in the body are ignored', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau');
    const early = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/quote',
      headers,
      payload: {
        input: {
          quoteType: 'SINGLETRIP',
          homeAddress: { countryCode: 'AUS', provinceCode: 'NSW' },
          destinationCountryCodes: ['IDN'],
          departureDate: '2026-12-10',
          returnDate: '2026-12-23',
          policyHolders: [{ age: 40, isPrimary: true }],
        },
      },
    });
    const notReady = (
      await purchase(t, purchaseBody({ id: early.json<{ id: string }>().id, termIds: [] }, CARDS.approved))
    ).json<PurchaseAnswer>();
    expect(notReady.validation.errors.map((e) => e.code)).toEqual(
      expect.arrayContaining(['QUOTE_NOT_READY', 'PLAN_NOT_CHOSEN']),
    );

    const quote = await readyQuote(t);
    const body = purchaseBody(quote, CARDS.approved);
    Object.assign(body.quote, {
      isPurchaseInitiated: true,
      evaluatedPartner: { id: 999 },
      brandCode: 'nomad',
      totalPrice: 0.01,
      policyNumber: 'HACKED',
    });
    (body.quote.input as Record<string, unknown>).policyHolders = [
      { firstName: 'Augusta', emailAddress: 'augusta@example.com' },
    ];
    Object.assign(body, { prices: [{ totalPrice: 0.01 }] });
    const res = (await purchase(t, body)).json<PurchaseAnswer>();
    expect(res.paymentResult).toBe('APPROVED');
    expect(res.quote.policyNumber).not.toBe('HACKED');
    expect(res.quote.input.policyHolders[0]).toMatchObject({
      firstName: 'Augusta',
      emailAddress: 'augusta@example.com',
    });
    expect((await books(t, quote.id)).capturedMinor).toBe(Math.round(quote.totalPrice * 100));
  });
});

describe(`purchase: idempotency and double submits (${DIALECT})`, () => {
  it('same key and body → the stored answer (one policy, one charge); same key, other body → 422', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const body = purchaseBody(quote, CARDS.approved);
    const first = await purchase(t, body, { key: `buy-${quote.id}` });
    const replay = await purchase(t, body, { key: `buy-${quote.id}` });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    const other = await purchase(t, purchaseBody(quote, CARDS.declined), { key: `buy-${quote.id}` });
    expect(other.statusCode).toBe(422);
    expect(other.json().validation.errors[0].code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await books(t, quote.id)).toMatchObject({ policies: 1, captures: 1 });
  });

  it.each([
    ['with', true],
    ['without', false],
  ])('concurrent double submit %s a key: one policy, one charge', async (_label, withKey) => {
    const t = getApp();
    const quote = await readyQuote(t);
    const body = purchaseBody(quote, CARDS.approved);
    const answers = await Promise.all(
      [1, 2, 3].map(() => purchase(t, body, withKey ? { key: `double-${quote.id}` } : {})),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) {
      if (answer.statusCode === 200) expect(answer.json<PurchaseAnswer>().paymentResult).toBe('APPROVED');
      else expect(answer.statusCode).toBe(409);
    }
    expect(await books(t, quote.id)).toMatchObject({ policies: 1, captures: 1 });
  });
});
