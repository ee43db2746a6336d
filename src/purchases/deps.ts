import type { FastifyBaseLogger } from 'fastify';
import { catalogueOf } from '../catalogue/service.js';
import type { AppContext } from '../context.js';
import type { PaymentGateways } from '../payments/gateway.js';
import type { PurchaseDeps, PurchaseReferrals } from './ports.js';
import { screeningsFor } from '../quotes/live-ports.js';
import { referralForPurchase } from '../referrals/service.js';

/** The purchase's collaborators for an app or a command: database, gateway, catalogue, clock. */
export function purchaseDepsFor(context: AppContext, gateways: PaymentGateways, log?: FastifyBaseLogger): PurchaseDeps {
  return {
    db: context.db,
    gateways,
    clock: context.clock,
    catalogue: catalogueOf(context),
    screenings: screeningsFor(context),
    referrals: purchaseReferralsFor(context),
    ...(log ? { log } : {}),
    // The config refuses the hook in production.
    ...(context.config.env !== 'production' && context.config.purchaseCrashAfter
      ? { crashAfter: context.config.purchaseCrashAfter }
      : {}),
    ...(context.config.env !== 'production' && context.crashHook ? { crashHook: context.crashHook } : {}),
  };
}

/** The referral check of a running app's purchases (referrals/service.ts). */
export function purchaseReferralsFor(context: AppContext): PurchaseReferrals {
  const deps = { db: context.db, catalogue: catalogueOf(context), clock: context.clock };
  return { approvalFor: (request) => referralForPurchase(deps, request) };
}
