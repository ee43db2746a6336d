import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../../context.js';
import type { PaymentGateways } from '../../gateway.js';
import type { ApplyDeps } from './apply-payments.js';

/** What applying Stripe's events needs: the money flow's collaborators and the recovery grace. */
export function stripeWebhookDepsFor(
  context: AppContext,
  gateways: PaymentGateways,
  log?: FastifyBaseLogger,
): ApplyDeps {
  const { config } = context;
  return {
    db: context.db,
    gateways,
    clock: context.clock,
    // The same grace as recovery: a record touched more recently belongs to the process working on it.
    graceSeconds: config.purchaseRecoveryGraceSeconds,
    ...(log ? { log } : {}),
    ...(config.env !== 'production' && context.crashHook ? { crashHook: context.crashHook } : {}),
  };
}
