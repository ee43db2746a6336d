import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { BrandCode } from '../../src/kernel/brands.js';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';

/** 11:00 on 22 November 2026 in Sydney; the trips below leave in December. */
export const NOW = new Date('2026-11-22T00:00:00Z');
export { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';

export interface PurchaseAnswer {
  quote: {
    id: string;
    isPurchased: boolean;
    isPurchaseInitiated: boolean;
    policyNumber?: string;
    stage: string;
    prices: { planId: number; totalPrice: number }[];
    input: { planId: number; policyHolders: { firstName?: string; emailAddress?: string }[] };
  };
  cardToken?: { token?: string; source?: string };
  paymentIds?: string;
  paymentResult?: string;
  paymentMethod?: string;
  threeDSResponseInfo?: { threeDSStatus?: string; threeDSRequestPattern?: string; threeDSResponse?: string };
  validation: { isValid: boolean; errors: { code: string; property?: string; tokens?: Record<string, string> }[] };
}

/** A December trip from Sydney for two adults and a child, with every detail stage DETAILS needs. */
export function detailedTrip(planId: number) {
  return {
    quoteType: 'SINGLETRIP',
    planId,
    homeAddress: { countryCode: 'AUS', provinceCode: 'NSW', addressLine1: '1 George St', postalCode: '2000' },
    destinationCountryCodes: ['IDN'],
    departureDate: '2026-12-10',
    returnDate: '2026-12-23',
    policyHolders: [
      {
        guid: 'adult-1',
        dateOfBirth: '1984-05-02',
        isPrimary: true,
        firstName: 'Ada',
        lastName: 'Lovelace',
        emailAddress: 'ada@example.com',
        phoneNumber: '+61 400 000 000',
      },
      { guid: 'adult-2', dateOfBirth: '1986-03-15', firstName: 'Charles', lastName: 'Babbage' },
      { guid: 'child-1', dateOfBirth: '2017-08-09', isDependent: true, firstName: 'Byron', lastName: 'Lovelace' },
    ],
  };
}

/** The planId of plan `code` in force, and its purchase terms, from the plan endpoint (spec §4.5). */
export async function planOf(
  t: TestApp,
  brand: BrandCode,
  code: string,
  partner: 'A' | 'B' = 'A',
): Promise<{ planId: number; termIds: number[] }> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/products/v1/${brand}/plans?planCode=${code}&partnerCode=PARTNER${partner}`,
    headers: await bearerFor(t, brand, partner),
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<{
    planId: number;
    purchaseTermsAndConditions: { termConditionId: number; policyActionTypeId: number }[];
  }>();
  return {
    planId: body.planId,
    termIds: body.purchaseTermsAndConditions
      .filter((term) => term.policyActionTypeId === 1)
      .map((term) => term.termConditionId),
  };
}

/** Creates a quote and moves it to DETAILS with a PUT (the partner flow); returns its id and price. */
export async function readyQuote(
  t: TestApp,
  brand: BrandCode = 'brandau',
  partner: 'A' | 'B' = 'A',
): Promise<{ id: string; totalPrice: number; termIds: number[] }> {
  const headers = await bearerFor(t, brand, partner);
  const plan = await planOf(t, brand, 'COMP', partner);
  const { policyHolders, ...rest } = detailedTrip(plan.planId);
  const created = await t.app.inject({
    method: 'POST',
    url: `/quotes/v2/${brand}/quote`,
    headers,
    payload: {
      input: {
        ...rest,
        policyHolders: policyHolders.map((h) => ({
          guid: h.guid,
          dateOfBirth: h.dateOfBirth,
          isPrimary: h.isPrimary,
          isDependent: h.isDependent,
        })),
      },
    },
  });
  expect(created.statusCode).toBe(200);
  const id = created.json<{ id: string }>().id;
  const updated = await t.app.inject({
    method: 'PUT',
    url: `/quotes/v2/${brand}/quote/${id}`,
    headers,
    payload: { stage: 'DETAILS', input: detailedTrip(plan.planId) },
  });
  expect(updated.statusCode).toBe(200);
  const quote = updated.json<{
    stage: string;
    validation: { isValid: boolean };
    prices: { planId: number; totalPrice: number }[];
  }>();
  expect(quote.validation.isValid).toBe(true);
  expect(quote.stage).toBe('DETAILS');
  const price = quote.prices.find((p) => p.planId === plan.planId);
  expect(price).toBeDefined();
  return { id, totalPrice: price!.totalPrice, termIds: plan.termIds };
}

export function purchaseBody(
  quote: { id: string; termIds: number[] },
  cardToken: string,
  extra: Record<string, unknown> = {},
) {
  return {
    quote: {
      id: quote.id,
      input: { regulatoryDeclarations: quote.termIds.map((termConditionId) => ({ termConditionId, hasAgreed: true })) },
    },
    cardToken: { token: cardToken, source: 'hosted-page' },
    ...extra,
  };
}

export async function purchase(
  t: TestApp,
  body: unknown,
  options: { brand?: BrandCode; partner?: 'A' | 'B'; key?: string } = {},
): Promise<LightMyRequestResponse> {
  const brand = options.brand ?? 'brandau';
  const headers = {
    ...(await bearerFor(t, brand, options.partner ?? 'A')),
    ...(options.key ? { 'idempotency-key': options.key } : {}),
  };
  return t.app.inject({
    method: 'POST',
    url: `/quotes/v2/${brand}/purchase`,
    headers,
    payload: body as Record<string, unknown>,
  });
}

/** Follows a challenge URL like the cardholder's browser: GET the page, POST the decision its form names. */
export async function answerChallenge(t: TestApp, url: string, decision: 'approve' | 'decline'): Promise<void> {
  const page = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
  expect(page.statusCode).toBe(200);
  const action = /<form method="post" action="([^"]+)">/.exec(page.body)?.[1];
  expect(action).toBeDefined();
  const answer = await t.app.inject({
    method: 'POST',
    url: new URL(action!, url).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `decision=${decision}`,
  });
  expect(answer.statusCode).toBe(200);
}

/** The books: issued policies of a quote and the money the sandbox captured for it. */
export async function books(
  t: TestApp,
  quoteId: string,
): Promise<{ policies: number; captures: number; capturedMinor: number; authorisations: number }> {
  const { db } = t.context;
  const policies = await db.selectFrom('policy_header').select('id').where('quote_id', '=', quoteId).execute();
  const purchases = await db.selectFrom('purchase').select('public_id').where('quote_id', '=', quoteId).execute();
  const references = purchases.map((p) => p.public_id);
  const payments =
    references.length === 0
      ? []
      : await db.selectFrom('sandbox_payment').selectAll().where('reference', 'in', references).execute();
  const captured = payments.filter((p) => p.captured_minor > 0);
  return {
    policies: policies.length,
    captures: captured.length,
    capturedMinor: captured.reduce((sum, p) => sum + p.captured_minor, 0),
    authorisations: payments.filter((p) => p.status === 'authorised').length,
  };
}
