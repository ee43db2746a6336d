import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerLifecycle, type Lifecycle } from './http/lifecycle.js';
import { registerHttpMetrics } from './http/metrics.js';
import { registerOpenApi } from './http/openapi.js';
import { REQUEST_ID_HEADER, requestIdFor } from './http/request-id.js';
import { validatorCompiler } from './http/validation.js';
import { loggerOptions } from './logging.js';
import { operationsRoutes } from './ops/routes.js';
import { policiesRoutes } from './policies/routes.js';

export interface BuildAppOptions {
  /** Overrides the configured logger (tests pass `false` or a capturing stream). */
  readonly logger?: FastifyServerOptions['logger'];
}

/** Assembles the HTTP application from cross-cutting plugins and the domain areas. No logic here. */
export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = context;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    genReqId: requestIdFor,
    bodyLimit: config.bodyLimitBytes,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler());
  // JSON endpoints take JSON only: a text/plain body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  registerErrorHandling(app);
  const metrics = registerHttpMetrics(app);
  const lifecycle = registerLifecycle(app);
  app.decorate('lifecycle', lifecycle);
  await registerOpenApi(app, config);

  await app.register(operationsRoutes, { context, metrics, lifecycle });
  await app.register(
    async (api) => {
      // Public contract routes (the token endpoint) register on `api`.
      await api.register(async (protectedApi) => {
        // Every route in this scope requires a bearer token for its brand (auth guard goes here).
        await Promise.resolve(protectedApi);
        await protectedApi.register(policiesRoutes, { context });
      });
    },
    { prefix: config.basePath },
  );
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set `draining` before closing so /ready fails and clients reconnect elsewhere. */
    lifecycle: Lifecycle;
  }
}
