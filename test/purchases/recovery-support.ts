import { findPartner } from '../../src/auth/accounts.js';
import { catalogueOf } from '../../src/catalogue/service.js';
import { purchaseReferralsFor } from '../../src/purchases/deps.js';
import { everyRouteTo, type PaymentGateway } from '../../src/payments/gateway.js';
import type { Purchase } from '../../src/purchases/model.js';
import { findPurchaseOfQuote } from '../../src/purchases/repository.js';
import { purchaseQuote } from '../../src/purchases/service.js';
import type { PurchaseDeps } from '../../src/purchases/ports.js';
import type { TestApp } from '../helpers/app.js';
import { CARDS, NOW, purchaseBody, readyQuote } from './support.js';

/** Shared by the recovery tests: a purchase left in flight by a process that "died". */
export class Crash extends Error {}

export const later = (seconds: number) => () => new Date(NOW.getTime() + seconds * 1000);

export function recoveryDeps(
  t: TestApp,
  gateway: PaymentGateway = t.app.paymentGateway,
  clock = () => NOW,
): PurchaseDeps {
  const screenings = { ofQuote: () => Promise.resolve([]) };
  return {
    db: t.context.db,
    gateways: everyRouteTo(gateway),
    clock,
    catalogue: catalogueOf(t.context),
    screenings,
    referrals: purchaseReferralsFor(t.context),
  };
}

/** The sandbox, except that the process "dies" right after the named call reached the gateway. */
export function dyingAfter(t: TestApp, call: 'authorise' | 'capture'): PaymentGateway {
  const real = t.app.paymentGateway;
  return {
    authorise: async (r) => {
      const o = await real.authorise(r);
      if (call === 'authorise') throw new Crash();
      return o;
    },
    continueThreeDs: (r) => real.continueThreeDs(r),
    capture: async (r) => {
      const o = await real.capture(r);
      if (call === 'capture') throw new Crash();
      return o;
    },
    void: (r) => real.void(r),
    refund: (r) => real.refund(r),
  };
}

/** Buys a fresh ready quote through the service with `gateway`; a Crash is swallowed (the "process" died). */
export async function buyDirectly(
  t: TestApp,
  gateway: PaymentGateway,
  card: string = CARDS.approved,
  idempotencyKeyId?: number,
  ready?: { id: string; totalPrice: number; termIds: number[] },
): Promise<{ quoteId: string; totalPrice: number; termIds: number[] }> {
  const quote = ready ?? (await readyQuote(t));
  const partner = await findPartner(t.context, 'PARTNERA');
  const call = {
    buyer: { userId: 1, partnerId: partner!.id, partnerCode: 'PARTNERA' },
    brandCode: 'brandau' as const,
    body: purchaseBody(quote, card),
    client: {},
    ...(idempotencyKeyId !== undefined ? { idempotencyKey: { id: idempotencyKeyId } } : {}),
  };
  await purchaseQuote(recoveryDeps(t, gateway), call).catch((error: unknown) => {
    if (!(error instanceof Crash)) throw error;
  });
  return { quoteId: quote.id, totalPrice: quote.totalPrice, termIds: quote.termIds };
}

export async function purchaseOf(t: TestApp, quoteId: string): Promise<Purchase> {
  const found = await findPurchaseOfQuote(t.context.db, quoteId, [
    'STARTED',
    'CHALLENGE_PENDING',
    'AUTHORISED',
    'ISSUED',
    'CAPTURED',
    'DECLINED',
    'FAILED',
    'VOIDED',
  ]);
  if (!found) throw new Error(`no purchase of quote ${quoteId}`);
  return found;
}

export async function quoteFlags(t: TestApp, quoteId: string) {
  return t.context.db
    .selectFrom('quote')
    .select(['is_purchased', 'is_purchase_initiated'])
    .where('public_id', '=', quoteId)
    .executeTakeFirstOrThrow();
}
