import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { BrandCode } from '../../src/catalogue/brands.js';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import {
  CARDS,
  detailedTrip,
  planOf,
  purchase,
  purchaseBody,
  readyQuote,
  type PurchaseAnswer,
} from '../purchases/support.js';

export { CARDS, NOW, answerChallenge, detailedTrip } from '../purchases/support.js';

/** A policy bought through the API (readyQuote + purchase), with the input it was bought with. */
export async function boughtPolicy(
  t: TestApp,
  options: { brand?: BrandCode; card?: string } = {},
): Promise<{ policyNumber: string; planId: number; input: ReturnType<typeof detailedTrip> }> {
  const brand = options.brand ?? 'brandau';
  const quote = await readyQuote(t, brand);
  const res = await purchase(t, purchaseBody(quote, options.card ?? CARDS.approved), { brand });
  expect(res.statusCode).toBe(200);
  const body = res.json<PurchaseAnswer>();
  expect(body.validation.isValid).toBe(true);
  const plan = await planOf(t, brand, 'COMP');
  return { policyNumber: body.quote.policyNumber!, planId: plan.planId, input: detailedTrip(plan.planId) };
}

export interface Amounts {
  premium: number;
  discount: number;
  taxes: { name: string; amount: number }[];
  footprintsDonation: number;
  fees: { name: string; amount: number }[];
  transactionAmount: number;
}

export interface ChangeAnswer {
  id?: string;
  status?: string;
  expiresAt?: string;
  sequenceNumber?: number;
  difference?: Amounts;
  refund?: Amounts;
  refundBasis?: string;
  refundAmount?: number;
  transactionAmount?: number;
  coolingOffEndsAt?: string;
  validation: { isValid: boolean; errors: { code: string; property?: string }[] };
}

export interface ConfirmAnswer {
  policy: {
    sequenceNumber: number;
    policyStatus: string;
    policyActionType: string;
    transactionValueAggregateAmount: { amount: number };
  };
  amendment?: ChangeAnswer;
  cancellation?: ChangeAnswer;
  paymentResult?: string;
  paymentIds?: string;
  threeDSResponseInfo?: { threeDSStatus?: string; threeDSResponse?: string };
  refunds?: { paymentId: string; amount: number }[];
  validation: { isValid: boolean; errors: { code: string }[] };
}

const base = (brand: BrandCode, policyNumber: string) => `/policies/v1/${brand}/policies/${policyNumber}`;

export async function call(
  t: TestApp,
  method: 'GET' | 'POST',
  path: string,
  options: { brand?: BrandCode; partner?: 'A' | 'B'; key?: string; body?: unknown } = {},
): Promise<LightMyRequestResponse> {
  const headers = {
    ...(await bearerFor(t, options.brand ?? 'brandau', options.partner ?? 'A')),
    ...(options.key ? { 'idempotency-key': options.key } : {}),
  };
  return t.app.inject({
    method,
    url: path,
    headers,
    ...(options.body !== undefined ? { payload: options.body as Record<string, unknown> } : {}),
  });
}

export const previewAmendment = (t: TestApp, policyNumber: string, input: unknown, brand: BrandCode = 'brandau') =>
  call(t, 'POST', `${base(brand, policyNumber)}/amendments`, { brand, body: { input } });

export const previewCancellation = (
  t: TestApp,
  policyNumber: string,
  body: { reasonCode: string; effectiveDate?: string },
  brand: BrandCode = 'brandau',
) => call(t, 'POST', `${base(brand, policyNumber)}/cancellations`, { brand, body });

export const confirm = (
  t: TestApp,
  policyNumber: string,
  kind: 'amendments' | 'cancellations',
  id: string,
  options: { key: string; body?: unknown; brand?: BrandCode },
) =>
  call(t, 'POST', `${base(options.brand ?? 'brandau', policyNumber)}/${kind}/${id}/confirm`, {
    brand: options.brand ?? 'brandau',
    key: options.key,
    body: options.body ?? {},
  });

export const details = async (t: TestApp, policyNumber: string, brand: BrandCode = 'brandau') =>
  (await call(t, 'GET', `${base(brand, policyNumber)}/details`, { brand })).json<
    { policyDetailNumber: string; actionType: string; status: string; financialSummary: Amounts }[]
  >();
