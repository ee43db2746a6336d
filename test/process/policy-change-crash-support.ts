import { expect } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { PartnerClient } from '../purchases/http-client.js';
import type { CrashGateway } from './crash-gateways.js';

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

/**
 * The change row, its policy's transactions and what the gateway holds for both (its charges under
 * the change's reference, the purchase's payment); the sandbox's keyed calls (none on Stripe).
 */
export async function booksOf(database: TestDatabase, crashed: Crashed, gateway: CrashGateway) {
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
  const charges = await gateway.paymentsFor(database, crashed.changeId);
  const purchasePayment = await gateway.payment(database, crashed.purchasePaymentId);
  if (!purchasePayment) throw new Error(`the gateway holds no payment ${crashed.purchasePaymentId}`);
  const operations = await db
    .selectFrom('sandbox_operation')
    .select(['idempotency_key', 'operation'])
    .where('idempotency_key', 'like', `policy-change:${crashed.changeId}:%`)
    .orderBy('id')
    .execute();
  return { change, header, transactions, charges, purchasePayment, operations };
}
