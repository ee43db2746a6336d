import type { FastifyInstance } from 'fastify';
import { claimsKnownFor } from './auth/known-bearer.js';
import type { AuthServices } from './auth/service.js';
import { catalogueOf } from './catalogue/service.js';
import type { AppContext } from './context.js';
import { requestCompletedLine } from './logging/options.js';
import { directRequestLineWriter, type RequestLineWriter } from './logging/request-log-line.js';
import type { FrontCache, FrontCacheDeps } from './http/front-cache/front-cache.js';
import { clientAddressOf } from './http/client-address.js';
import type { Lifecycle } from './http/server/lifecycle.js';
import type { HttpMetrics } from './http/metrics.js';
import type { RateLimits } from './http/limits/rate-limits.js';

/** Gives the front cache what it asks of the app: the logger, metrics, lifecycle, catalogue and bearer checks. */
export function connectFrontCache(
  app: FastifyInstance,
  cache: FrontCache,
  parts: {
    context: AppContext;
    auth: AuthServices;
    metrics: HttpMetrics;
    lifecycle: Lifecycle;
    rateLimits: RateLimits | undefined;
  },
): void {
  const { context, auth, metrics, lifecycle, rateLimits } = parts;
  const catalogue = catalogueOf(context);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  cache.connect({
    log: app.log,
    logCompleted: directRequestLineWriter(app.log) ?? pinoRequestLine(app),
    clientAddressOf: clientAddressOf(context.config.trustedProxies),
    metrics,
    accepting: () => !closing && !lifecycle.draining,
    freshCatalogueVersion: () => catalogue.freshVersionId(),
    callerOf: (authorization, nowMs, connection) => claimsKnownFor(auth, authorization, nowMs, connection),
    ...(rateLimits ? { admitRead: readAdmission(auth, rateLimits) } : {}),
    nowMs: () => context.clock().getTime(),
  });
}

/** Cached reads count against the caller's partner budget like reads Fastify answers. */
function readAdmission(auth: AuthServices, rateLimits: RateLimits): NonNullable<FrontCacheDeps['admitRead']> {
  return async (authorization, nowMs, connection) => {
    const claims = claimsKnownFor(auth, authorization, nowMs, connection);
    if (!claims) return false; // not vouched for after all: Fastify decides
    return (await rateLimits.admitRead(claims.partnerId)).allowed;
  };
}

/** The line through the logger's own API, for loggers the direct writer does not know (tests' custom ones). */
function pinoRequestLine(app: FastifyInstance): RequestLineWriter {
  return ({ id, url, ip, userAgent, statusCode, route, elapsedMs }) => {
    const loggable = { id, method: 'GET', url, ip, headers: { 'user-agent': userAgent } };
    app.log.info({ reqId: id, ...requestCompletedLine(loggable, statusCode, route, elapsedMs) }, 'request completed');
  };
}
