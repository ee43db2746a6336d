import type { FastifyInstance } from 'fastify';
import { claimsKnownFor } from '../auth/known-bearer.js';
import type { AuthServices } from '../auth/service.js';
import type { AppContext } from '../context.js';
import type { Lifecycle } from '../http/lifecycle.js';
import type { HttpMetrics } from '../http/metrics.js';
import type { FrontCache } from './front-cache.js';
import { catalogueOf } from './service.js';

/** Gives the front cache what it asks of the app: the logger, metrics, lifecycle, catalogue and bearer checks. */
export function connectFrontCache(
  app: FastifyInstance,
  cache: FrontCache,
  parts: { context: AppContext; auth: AuthServices; metrics: HttpMetrics; lifecycle: Lifecycle },
): void {
  const { context, auth, metrics, lifecycle } = parts;
  const catalogue = catalogueOf(context);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  cache.connect({
    log: app.log,
    metrics,
    accepting: () => !closing && !lifecycle.draining,
    freshCatalogueVersion: () => catalogue.freshVersionId(),
    brandOfCaller: (authorization) => claimsKnownFor(context, auth, authorization)?.brandCode,
    nowMs: () => context.clock().getTime(),
  });
}
