import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.js';
import { frameworkErrorHandler, registerErrorHandling } from './http/error-handler.js';
import { StorageHealth } from './db/storage-health.js';
import { DeliveryLag } from './db/outbox/lag.js';
import { DELIVERED_KINDS } from './outbox-kinds.js';
import { clientErrorHandler } from './http/server/client-errors.js';
import { refuseCardNumbers } from './http/guards/card-number-refusal.js';
import { refuseControlCharacters } from './http/guards/control-characters.js';
import { registerJsonBodyParser } from './http/guards/json-body.js';
import { serverTimeoutOptions } from './http/server/timeouts.js';
import { registerLifecycle, type Lifecycle } from './http/server/lifecycle.js';
import { createHttpMetrics, registerHttpMetrics } from './http/metrics.js';
import { registerOpenApi } from './http/openapi/openapi.js';
import { apiExamples } from './api-examples/register.js';
import { registerRootPage } from './http/root-page.js';
import { registerPrivateAnswers } from './http/guards/private-answers.js';
import { REQUEST_ID_HEADER, requestIdFor } from './http/request-id.js';
import { validatorCompiler } from './http/validation.js';
import { batchedStandardOutput } from './logging/destination.js';
import { loggerOptions, OneLineRequestLog } from './logging/options.js';
import { operationsRoutes } from './http/ops/routes.js';
import { productRoutes } from './catalogue/routes.js';
import { FrontCache, serverWithFrontCache } from './http/front-cache/front-cache.js';
import { connectFrontCache } from './front-cache-wiring.js';
import type { QuotePorts } from './quotes/ports.js';
import { quotesRoutes } from './quotes/routes.js';
import { quotePortsFor } from './quotes/live-ports.js';
import { installBearerGuard, protectWithBearer } from './auth/guard.js';
import { authRoutes } from './auth/routes.js';
import { metadataRoutes } from './auth/metadata.js';
import { createAuthServices } from './auth/service.js';
import { paymentGatewayFor, paymentGatewayRoutes, paymentGatewaysFor } from './payments/gateways.js';
import { sandboxMailRoutes } from './documents/mail/sandbox/routes.js';
import { stripeWebhookRoutes } from './payments/stripe/webhooks/routes.js';
import { idempotencyServiceFor } from './http/idempotency/hooks.js';
import { policiesRoutes } from './policies/routes.js';
import { purchaseRoutes } from './purchases/routes.js';
import { referralRoutes } from './referrals/routes.js';
import { policyChangeRoutes } from './policy-changes/routes.js';
import { documentsRoutes } from './documents/routes.js';
import { documentLinkRoutes } from './documents/link-routes.js';
import type { Resolver } from './events/webhooks/address-guard.js';
import { webhookRoutes } from './events/webhooks/routes.js';
import { webhooksOfEventLog } from './events/webhooks/fan-out.js';
import type { EventWebhooks } from './events/model.js';
import { eventsRoutes } from './events/routes.js';
import { statementsRoutes } from './statements/routes.js';
import { screeningRoutes } from './screening/routes.js';
import { screeningPageRoutes } from './screening/page-routes.js';
import { liveScreeningEngines, type ScreeningEngineFor } from './screening/live-engine.js';
import { eventWebhooks } from './events/openapi-webhooks.js';
import { limitPartnerRequests, registerRateLimits } from './http/limits/rate-limits.js';
import { fastifyTrustProxy } from './http/client-address.js';
import { tokenEndpointLimits } from './auth/token-limits.js';
import { consoleRoutes, type ConsoleRoute } from './console/plugin.js';
import { consoleOperatorsFor } from './operators/console-operators.js';

export interface BuildAppOptions {
  /** Overrides the configured logger (tests pass `false` or a capturing stream). */
  readonly logger?: FastifyServerOptions['logger'];
  /** Catalogue and pricing as the quotes area needs them (tests pass in-memory ones). */
  readonly quotePorts?: QuotePorts;
  /** How webhook URLs' host names resolve (tests inject one; default the system's DNS). */
  readonly webhookResolver?: Resolver;
  /** The webhooks area's side of the event log: each event's deliveries and their outbox message. */
  readonly eventWebhooks?: EventWebhooks;
  /** The screening engine of a catalogue version (tests with in-memory quote ports pass one). */
  readonly screeningEngineFor?: ScreeningEngineFor;
}

/** Assembles the HTTP application from cross-cutting plugins and the domain areas. No logic here. */
export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = context;
  const frontCache = new FrontCache();
  // The exact Node.js version is shown only behind METRICS_TOKEN (http/ops/routes.ts).
  const metrics = createHttpMetrics({ nodeVersion: config.metricsToken !== undefined });
  const app = Fastify({
    logger: options.logger ?? { ...loggerOptions(config), stream: batchedStandardOutput() },
    serverFactory: serverWithFrontCache(frontCache),
    genReqId: requestIdFor,
    bodyLimit: config.bodyLimitBytes,
    logController: new OneLineRequestLog(),
    // Framework-level errors in the contract's body (issue 18, items 9 and 10): bounded request
    // time, parser refusals, pre-routing errors; 503 on closing comes from http/server/lifecycle.ts.
    ...serverTimeoutOptions(config),
    clientErrorHandler: clientErrorHandler({ metrics, oauthPath: tokenPathPattern(config.basePath) }),
    frameworkErrors: frameworkErrorHandler(metrics, { oauthPath: tokenPathPattern(config.basePath) }),
    return503OnClosing: false,
    // Behind a TLS-terminating proxy: only the named proxies may set the client address and scheme.
    trustProxy: fastifyTrustProxy(config.trustedProxies),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler());
  // JSON endpoints take JSON only: a text/plain body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  // Storage refusing writes (disk full) fails readiness for a while (db/storage-health.ts).
  const storage = new StorageHealth();
  registerErrorHandling(app, storage);
  // No field holds a control character: refused on every route before validation (both engines alike).
  app.addHook('preValidation', refuseControlCharacters);
  // Nor a card number, in a body, a query or a stored header: one rule for every route, before
  // validation and before an Idempotency-Key is claimed, so none is ever stored, echoed or logged.
  app.addHook('preValidation', refuseCardNumbers);
  registerJsonBodyParser(app);
  registerPrivateAnswers(app);
  registerHttpMetrics(app, metrics);
  const lifecycle = registerLifecycle(app);
  app.decorate('lifecycle', lifecycle);
  await registerOpenApi(app, config, { webhooks: eventWebhooks(), examples: apiExamples(app, context) });
  registerRootPage(app, config.basePath);

  // The outbox's delivery lag by kind, shown by /metrics and /ready (db/outbox/lag.ts).
  const deliveryLag = new DeliveryLag(context.db, DELIVERED_KINDS, context.clock);
  await app.register(operationsRoutes, { context, metrics, lifecycle, storage, deliveryLag });
  const auth = createAuthServices(context);
  installBearerGuard(app, context, auth);
  const rateLimits = await registerRateLimits(app, config.rateLimits);
  connectFrontCache(app, frontCache, { context, auth, metrics, lifecycle, rateLimits });
  app.decorate('frontCache', frontCache);
  const cardGateway = paymentGatewayFor(context);
  app.decorate('paymentGateway', cardGateway);
  app.decorate('paymentGateways', paymentGatewaysFor(context, cardGateway));
  app.decorate('idempotency', idempotencyServiceFor(context));
  // Pages a payment gateway serves itself (the sandbox issuer's 3-D Secure challenge): public, for the cardholder's browser.
  for (const gatewayRoutes of paymentGatewayRoutes(config)) await app.register(gatewayRoutes, { context });
  // Stripe's webhooks (public: Stripe's signature is the check; recorded, then applied).
  await app.register(stripeWebhookRoutes, { context });
  // The staging sandbox mailbox (/sandbox/mail): e-mails kept instead of sent; never in production.
  if (config.env !== 'production') await app.register(sandboxMailRoutes, { context });
  // The operators' console: its own sessions and pages at /console, outside the partner API's base path.
  const consoleRouteTable: ConsoleRoute[] = [];
  app.decorate('consoleRouteTable', consoleRouteTable);
  await app.register(consoleRoutes, {
    prefix: '/console',
    context,
    operators: consoleOperatorsFor(context),
    routeTable: consoleRouteTable,
  });
  // RFC 8414 metadata lives under /.well-known, ahead of BASE_PATH.
  await app.register(metadataRoutes, { context });
  await app.register(
    async (api) => {
      // Public contract routes (the token endpoint) register on `api`.
      await api.register(authRoutes, {
        context,
        services: auth,
        ...(rateLimits ? { limits: tokenEndpointLimits(rateLimits) } : {}),
      });
      // The customer's document link: public (the link value is the key), limited per client address.
      await api.register(documentLinkRoutes, { context, ...(rateLimits ? { limits: rateLimits } : {}) });
      const quotePorts = options.quotePorts ?? quotePortsFor(context);
      const screeningEngineFor = options.screeningEngineFor ?? liveScreeningEngines(context);
      // The traveller's hosted screening page: public (the link value is the key), limited per client address.
      await api.register(screeningPageRoutes, {
        context,
        ports: quotePorts,
        engineFor: screeningEngineFor,
        ...(rateLimits ? { limits: rateLimits } : {}),
      });
      await api.register(async (protectedApi) => {
        // Every route in this scope requires a bearer token for its brand.
        protectWithBearer(protectedApi);
        // After the guard: budgets are per partner, by route class.
        limitPartnerRequests(protectedApi, rateLimits);
        await protectedApi.register(productRoutes, { context, frontCache });
        await protectedApi.register(quotesRoutes, { context, ports: quotePorts });
        await protectedApi.register(screeningRoutes, {
          context,
          ports: quotePorts,
          engineFor: screeningEngineFor,
        });
        await protectedApi.register(policiesRoutes, { context });
        await protectedApi.register(documentsRoutes, { context });
        await protectedApi.register(purchaseRoutes, { context });
        await protectedApi.register(referralRoutes, { context });
        await protectedApi.register(policyChangeRoutes, { context });
        await protectedApi.register(webhookRoutes, {
          context,
          ...(options.webhookResolver ? { resolve: options.webhookResolver } : {}),
        });
        await protectedApi.register(eventsRoutes, {
          context,
          webhooks: options.eventWebhooks ?? webhooksOfEventLog,
        });
        await protectedApi.register(statementsRoutes, { context });
      });
    },
    { prefix: config.basePath },
  );
  return app;
}

/** The token endpoint's path (auth/routes.ts), whose failures use OAuth's error body. */
function tokenPathPattern(basePath: string): RegExp {
  return new RegExp(`^${basePath.replace(/[.]/g, '\\.')}/users/[^/]+/token$`);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set `draining` before closing so /ready fails and clients reconnect elsewhere. */
    lifecycle: Lifecycle;
    /** Answers repeated product reads ahead of routing (http/front-cache/front-cache.ts). */
    frontCache: FrontCache;
    /** Every console route and the action it asks (console/plugin.ts). */
    consoleRouteTable: readonly ConsoleRoute[];
  }
}
