import { afterAll, beforeAll, expect } from 'vitest';
import { SANDBOX_CARD_TOKENS } from '../../src/payments/sandbox/cards.js';
import type { TestDatabase } from '../helpers/database.js';
import { TEST_PAYMENT_METHODS as PM } from '../helpers/stripe-standin/ledger.js';
import { startStripeStandin, type StripeStandin } from '../helpers/stripe-standin/server.js';

/**
 * The card gateway a kill -9 test runs against (issue 29): the sandbox, or Stripe through the local
 * stand-in (`PAYMENT_GATEWAY=stripe`, started before the describe's own hooks and closed after).
 * The same crash scenario reads the money from the gateway's own books: the sandbox's tables, or
 * the stand-in's record of PaymentIntents and refunds.
 */
export type CrashGatewayName = 'sandbox' | 'stripe';

/** What a gateway holds for one payment, in minor units. */
export interface GatewayPayment {
  readonly paymentId: string;
  readonly amount: number;
  readonly captured: number;
  readonly refunded: number;
}

export interface CrashGateway {
  readonly name: CrashGatewayName;
  readonly cards: { readonly approved: string; readonly declined: string; readonly challenge: string };
  /** The environment every child server of the run gets (empty for the sandbox, the default). */
  env(): Record<string, string>;
  /** The cardholder's browser: opens the challenge the answer named and approves it. */
  approveChallenge(serverUrl: string, challengeUrl: string): Promise<void>;
  /** Every payment the gateway holds under a reference (a purchase's or a change's public id). */
  paymentsFor(database: TestDatabase, reference: string): Promise<GatewayPayment[]>;
  /** One payment as the gateway holds it. */
  payment(database: TestDatabase, paymentId: string): Promise<GatewayPayment | undefined>;
  /** The refunds the gateway made against a payment, each amount (undefined: the sandbox keeps only a total). */
  refundsOf(paymentId: string): number[] | undefined;
}

/** The sandbox's challenge page, then the decision its form posts. */
async function approveSandboxChallenge(serverUrl: string, challengeUrl: string): Promise<void> {
  const pageUrl = `${serverUrl}${new URL(challengeUrl).pathname}`;
  const page = await fetch(pageUrl);
  expect(page.status).toBe(200);
  const action = /<form method="post" action="([^"]+)">/.exec(await page.text())?.[1] ?? '';
  const answer = await fetch(new URL(action, pageUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=approve',
  });
  expect(answer.status).toBe(200);
}

/** Stripe's hosted test page (the stand-in's): open it, press "Complete authentication". */
async function approveStripeChallenge(challengeUrl: string): Promise<void> {
  const page = await fetch(challengeUrl);
  expect(page.status).toBe(200);
  const form = new URLSearchParams(new URL(challengeUrl).searchParams);
  form.set('answer', 'complete');
  const answer = await fetch(new URL('/3d_secure_2/hosted', challengeUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect([200, 302]).toContain(answer.status);
}

function sandboxGateway(): CrashGateway {
  const select = (database: TestDatabase) =>
    database.db
      .selectFrom('sandbox_payment')
      .select([
        'payment_id as paymentId',
        'amount_minor as amount',
        'captured_minor as captured',
        'refunded_minor as refunded',
      ]);
  return {
    name: 'sandbox',
    cards: {
      approved: SANDBOX_CARD_TOKENS.approved,
      declined: SANDBOX_CARD_TOKENS.declined,
      challenge: SANDBOX_CARD_TOKENS.threeDsChallenge,
    },
    env: () => ({}),
    approveChallenge: approveSandboxChallenge,
    paymentsFor: (database, reference) => select(database).where('reference', '=', reference).orderBy('id').execute(),
    payment: (database, paymentId) => select(database).where('payment_id', '=', paymentId).executeTakeFirst(),
    refundsOf: () => undefined,
  };
}

function stripeGateway(): CrashGateway {
  let standin: StripeStandin | undefined;
  beforeAll(async () => {
    standin = await startStripeStandin();
  });
  afterAll(async () => {
    await standin?.close();
  });
  const started = (): StripeStandin => {
    if (!standin) throw new Error('the Stripe stand-in has not started (crashGateway goes before the beforeAll)');
    return standin;
  };
  const ledger = () => started().ledger;
  const asPayment = (intent: { id: string; amount: number; amountReceived: number; amountRefunded: number }) => ({
    paymentId: intent.id,
    amount: intent.amount,
    captured: intent.amountReceived,
    refunded: intent.amountRefunded,
  });
  return {
    name: 'stripe',
    cards: { approved: PM.approve, declined: PM.decline, challenge: PM.threeDSecure2Required },
    env: () => started().env,
    approveChallenge: (_serverUrl, challengeUrl) => approveStripeChallenge(challengeUrl),
    paymentsFor: (_database, reference) =>
      Promise.resolve([...ledger().intents.values()].filter((i) => i.metadata.reference === reference).map(asPayment)),
    payment: (_database, paymentId) => {
      const intent = ledger().intents.get(paymentId);
      return Promise.resolve(intent && asPayment(intent));
    },
    refundsOf: (paymentId) =>
      [...ledger().refunds.values()].filter((r) => r.paymentIntent === paymentId).map((r) => r.amount),
  };
}

/** Call at the top of a describe, before its own beforeAll: the stand-in must be up first. */
export const crashGateway = (name: CrashGatewayName): CrashGateway =>
  name === 'stripe' ? stripeGateway() : sandboxGateway();
