import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { BrandCode } from '../../src/kernel/brands.js';
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

/**
 * A policy bought through the API (a quote moved to DETAILS, then purchased), with the input it
 * was bought with. Plan COMP of the demo trip unless told (`plan`, `input` overrides of detailedTrip).
 */
export async function boughtPolicy(
  t: TestApp,
  options: { brand?: BrandCode; card?: string; plan?: string; input?: Record<string, unknown> } = {},
): Promise<{ policyNumber: string; planId: number; input: ReturnType<typeof detailedTrip> }> {
  const brand = options.brand ?? 'brandau';
  const plan = await planOf(t, brand, options.plan ?? 'COMP');
  const input = { ...detailedTrip(plan.planId), ...options.input };
  const quote =
    options.plan === undefined && options.input === undefined
      ? await readyQuote(t, brand)
      : await quoteInDetails(t, brand, input, plan.termIds);
  const res = await purchase(t, purchaseBody(quote, options.card ?? CARDS.approved), { brand });
  expect(res.statusCode).toBe(200);
  const body = res.json<PurchaseAnswer>();
  expect(body.validation.isValid, JSON.stringify(body.validation)).toBe(true);
  return { policyNumber: body.quote.policyNumber!, planId: plan.planId, input };
}

/** A quote of `input` created straight at DETAILS. */
export async function quoteInDetails(t: TestApp, brand: BrandCode, input: unknown, termIds: number[]) {
  const headers = await bearerFor(t, brand, 'A');
  const created = await t.app.inject({ method: 'POST', url: `/quotes/v2/${brand}/quote`, headers, payload: { input } });
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json<{ id: string }>().id;
  const url = `/quotes/v2/${brand}/quote/${id}`;
  const updated = await t.app.inject({ method: 'PUT', url, headers, payload: { stage: 'DETAILS', input } });
  expect(updated.statusCode, updated.body).toBe(200);
  expect(updated.json<{ validation: { isValid: boolean } }>().validation.isValid, updated.body).toBe(true);
  return { id, termIds };
}

export interface Amounts {
  premium: number;
  discount: number;
  taxes: { name: string; amount: number }[];
  footprintsDonation: number;
  /** Absent in a transaction's financialSummary when it has none. */
  fees?: { name: string; amount: number }[];
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

export interface SummaryAnswer {
  sequenceNumber: number;
  policyStatus: string;
  policyActionType: string;
  transactionValueAggregateAmount: { amount: number };
}

export const summary = async (t: TestApp, policyNumber: string, brand: BrandCode = 'brandau') =>
  (await call(t, 'GET', base(brand, policyNumber), { brand })).json<SummaryAnswer>();

/** Minor units of a major amount (the API speaks major units, the ledger minor). */
export const minor = (major: number) => Math.round(major * 100);

/**
 * The sandbox's books for a policy: every payment made for it (its purchase's and its changes'),
 * with what each captured and refunded, in minor units.
 */
export async function moneyOf(
  t: TestApp,
  policyNumber: string,
): Promise<{ captured: number; refunded: number; payments: { captured: number; refunded: number }[] }> {
  const { db } = t.context;
  const header = await db
    .selectFrom('policy_header')
    .select(['id', 'quote_id'])
    .where('policy_number', '=', policyNumber)
    .executeTakeFirstOrThrow();
  const purchases = await db
    .selectFrom('purchase')
    .select('public_id')
    .where('quote_id', '=', header.quote_id)
    .execute();
  const changes = await db
    .selectFrom('policy_change')
    .select('public_id')
    .where('policy_header_id', '=', header.id)
    .execute();
  const references = [...purchases, ...changes].map((r) => r.public_id);
  const rows = await db
    .selectFrom('sandbox_payment')
    .select(['captured_minor', 'refunded_minor'])
    .where('reference', 'in', references)
    .execute();
  const payments = rows.map((r) => ({ captured: r.captured_minor, refunded: r.refunded_minor }));
  return {
    captured: payments.reduce((sum, p) => sum + p.captured, 0),
    refunded: payments.reduce((sum, p) => sum + p.refunded, 0),
    payments,
  };
}

/** premium − discount + Σtaxes + footprintsDonation + Σfees, in minor units. */
export const partsTotal = (a: Amounts) =>
  minor(a.premium) -
  minor(a.discount) +
  a.taxes.reduce((sum, x) => sum + minor(x.amount), 0) +
  minor(a.footprintsDonation) +
  (a.fees ?? []).reduce((sum, x) => sum + minor(x.amount), 0);
