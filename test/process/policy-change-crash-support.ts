import { expect } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { PartnerClient } from '../purchases/http-client.js';

/** What one crash scenario left behind: its policy, its change and the confirmation that died. */
export interface Crashed {
  readonly policyNumber: string;
  readonly policyHeaderId: number;
  /** The payment of the policy's purchase (refunds go back to it). */
  readonly purchasePaymentId: string;
  readonly kind: 'amendments' | 'cancellations';
  readonly changeId: string;
  readonly amountMinor: number;
  readonly key: string;
  readonly body: Record<string, unknown>;
}

export const policyPath = (policyNumber: string) => `/policies/v1/brandau/policies/${policyNumber}`;

/** Buys a December trip (14th–20th) over HTTP: its policy number, header id, purchase payment and input. */
export async function buyOverHttp(client: PartnerClient, database: TestDatabase, card: string) {
  const quote = await client.readyQuote();
  const bought = await client.purchase(quote, card);
  expect(bought.status, JSON.stringify(bought.body)).toBe(200);
  const policyNumber = (bought.body.quote as { policyNumber: string }).policyNumber;
  const read = await client.call('GET', `/quotes/v2/brandau/quote/${quote.id}`);
  expect(read.status).toBe(200);
  const header = await database.db
    .selectFrom('policy_header')
    .select('id')
    .where('policy_number', '=', policyNumber)
    .executeTakeFirstOrThrow();
  const purchase = await database.db
    .selectFrom('purchase')
    .select(['payment_id', 'state'])
    .where('quote_id', '=', quote.id)
    .executeTakeFirstOrThrow();
  expect(purchase.state).toBe('CAPTURED');
  return {
    policyNumber,
    policyHeaderId: header.id,
    purchasePaymentId: purchase.payment_id!,
    input: read.body.input as Record<string, unknown>,
  };
}

/** The change row, its policy's transactions and what the sandbox gateway holds for both. */
export async function booksOf(database: TestDatabase, crashed: Crashed) {
  const { db } = database;
  const change = await db
    .selectFrom('policy_change')
    .select(['state', 'sequence_number', 'payment_id', 'amount_minor', 'refunds_json'])
    .where('public_id', '=', crashed.changeId)
    .executeTakeFirstOrThrow();
  const header = await db
    .selectFrom('policy_header')
    .select(['sequence_number', 'status'])
    .where('id', '=', crashed.policyHeaderId)
    .executeTakeFirstOrThrow();
  const transactions = await db
    .selectFrom('policy_detail')
    .select(['sequence_number', 'action_type', 'payment_reference'])
    .where('policy_header_id', '=', crashed.policyHeaderId)
    .orderBy('sequence_number')
    .execute();
  const charges = await db
    .selectFrom('sandbox_payment')
    .select(['payment_id', 'status', 'amount_minor', 'captured_minor', 'refunded_minor'])
    .where('reference', '=', crashed.changeId)
    .execute();
  const purchasePayment = await db
    .selectFrom('sandbox_payment')
    .select(['captured_minor', 'refunded_minor'])
    .where('payment_id', '=', crashed.purchasePaymentId)
    .executeTakeFirstOrThrow();
  const operations = await db
    .selectFrom('sandbox_operation')
    .select(['idempotency_key', 'operation'])
    .where('idempotency_key', 'like', `policy-change:${crashed.changeId}:%`)
    .orderBy('id')
    .execute();
  return { change, header, transactions, charges, purchasePayment, operations };
}
