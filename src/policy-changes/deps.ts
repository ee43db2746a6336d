import type { FastifyBaseLogger } from 'fastify';
import type { CatalogueReader } from '../catalogue/reader.js';
import { catalogueOf } from '../catalogue/service.js';
import type { AppContext } from '../context.js';
import type { PaymentGateways } from '../payments/gateway.js';
import type { QuotePorts } from '../quotes/ports.js';
import { quotePortsFor } from '../quotes/live-ports.js';
import type { ChangeFlowDeps } from './settlement.js';

/** A change's collaborators: the money flow's, the catalogue (rules, plans) and the quote pricing. */
export interface ChangeDeps extends ChangeFlowDeps {
  readonly catalogue: CatalogueReader;
  readonly ports: QuotePorts;
  /** How long a preview may be confirmed. */
  readonly previewTtlSeconds: number;
  /** How long a refund is retried through gateway outages before it ends. */
  readonly refundRetrySeconds: number;
}

export function changeDepsFor(context: AppContext, gateways: PaymentGateways, log?: FastifyBaseLogger): ChangeDeps {
  const { config } = context;
  return {
    db: context.db,
    gateways,
    clock: context.clock,
    catalogue: catalogueOf(context),
    ports: quotePortsFor(context),
    previewTtlSeconds: config.policyChanges.previewSeconds,
    refundRetrySeconds: config.policyChanges.refundRetrySeconds,
    ...(log ? { log } : {}),
    // The config refuses the hook in production.
    ...(config.env !== 'production' && config.policyChanges.crashAfter
      ? { crashAfter: config.policyChanges.crashAfter }
      : {}),
    ...(config.env !== 'production' && context.crashHook ? { crashHook: context.crashHook } : {}),
  };
}
