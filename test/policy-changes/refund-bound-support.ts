import { expect } from 'vitest';
import { changeDepsFor } from '../../src/policy-changes/deps.js';
import { recoverPolicyChanges, type ChangeRecoveryReport } from '../../src/policy-changes/recovery.js';
import type { TestApp } from '../helpers/app.js';
import {
  boughtPolicy,
  CARDS,
  confirm,
  details,
  minor,
  moneyOf,
  NOW,
  previewAmendment,
  previewCancellation,
  type ChangeAnswer,
  type ConfirmAnswer,
} from './support.js';

/** The refund bound the suites of a refund stuck on an outage run with (POLICY_CHANGE_REFUND_RETRY_SECONDS). */
export const BOUND_SECONDS = 3600;
export const BOUND_ENV = { DEMO_DATA: 'true', POLICY_CHANGE_REFUND_RETRY_SECONDS: String(BOUND_SECONDS) };

/** `seconds` after the suites' NOW. */
export const after = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

/** One recovery sweep, as every server runs it, at `at` (no grace: the tests' confirmations are over). */
export function sweepAt(t: TestApp, at: Date): Promise<ChangeRecoveryReport> {
  const deps = { ...changeDepsFor(t.context, t.app.paymentGateways), clock: () => at };
  return recoverPolicyChanges(deps, { graceSeconds: 0 });
}

/**
 * A policy bought with `purchaseCard`, amended to a later return (charged to an approved card),
 * then a cancellation confirmed: its refund goes back to both payments, the amendment's first.
 */
export async function cancelAfterAmendment(t: TestApp, purchaseCard: string, key: string) {
  const { policyNumber, input } = await boughtPolicy(t, { card: purchaseCard });
  const amendment = (
    await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-30' })
  ).json<ChangeAnswer>();
  expect(amendment.difference!.transactionAmount).toBeGreaterThan(0);
  const body = { cardToken: { token: CARDS.approved } };
  const amended = await confirm(t, policyNumber, 'amendments', amendment.id!, { key: `${key}-amend`, body });
  expect(amended.json<ConfirmAnswer>().validation.isValid, amended.body).toBe(true);
  const preview = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
  const confirmed = await confirm(t, policyNumber, 'cancellations', preview.id!, { key });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return {
    policyNumber,
    cancellationId: preview.id!,
    refundMinor: minor(preview.refundAmount!),
    amendmentMinor: minor(amendment.difference!.transactionAmount),
    confirmed,
  };
}

/**
 * The books of a policy, minor units: what the gateway holds (captured − refunded), what the
 * policy's transactions add up to, and the refund lines a change still refunding has recorded as
 * paid (its transaction is not written yet).
 */
export async function booksOf(t: TestApp, policyNumber: string) {
  const money = await moneyOf(t, policyNumber);
  const transactions = await details(t, policyNumber);
  const rows = await t.context.db
    .selectFrom('policy_change')
    .select('refunds_json')
    .where('policy_number', '=', policyNumber)
    .where('state', '=', 'REFUNDING')
    .execute();
  const lines = rows.flatMap(
    (r) => JSON.parse(r.refunds_json ?? '[]') as { amountMinor: number; refunded?: boolean }[],
  );
  return {
    atGateway: money.captured - money.refunded,
    refundedMinor: money.refunded,
    booked: transactions.reduce((sum, d) => sum + minor(d.financialSummary.transactionAmount), 0),
    transactions,
    inFlight: lines.filter((l) => l.refunded === true).reduce((sum, l) => sum + l.amountMinor, 0),
    payments: money.payments,
  };
}

/** The ledger property: the gateway's books are the transactions', less what a refund in flight recorded as paid. */
export async function expectBooksHold(t: TestApp, policyNumber: string, inFlight = 0) {
  const books = await booksOf(t, policyNumber);
  expect(books.inFlight).toBe(inFlight);
  expect(books.atGateway).toBe(books.booked - books.inFlight);
  for (const payment of books.payments) expect(payment.refunded).toBeLessThanOrEqual(payment.captured);
  return books;
}
