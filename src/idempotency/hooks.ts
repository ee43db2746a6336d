import type {
  FastifyReply,
  FastifyRequest,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { AppContext } from '../context.js';
import { IdempotencyService, parseIdempotencyKey, type ClaimToken } from './service.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on a replayed response, as Stripe does. */
export const REPLAYED_HEADER = 'idempotent-replayed';

export interface IdempotentRouteOptions {
  /** Defaults to the app's `idempotency` decoration. */
  readonly service?: IdempotencyService;
  /** Who owns the key: the partner (keys never cross partners). */
  scopeOf(request: FastifyRequest): string;
}

export interface IdempotentRouteHooks {
  preHandler: preHandlerAsyncHookHandler;
  onSend: onSendAsyncHookHandler;
  onResponse: onResponseAsyncHookHandler;
  /** Tells the OpenAPI document (http/openapi-shared.ts) that the route reads `Idempotency-Key`. */
  config: { idempotencyKey: true };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route honours `Idempotency-Key` (set by `idempotentRoute`). */
    idempotencyKey?: boolean;
  }
}

/** The service for an app, with the configured retention. */
export function idempotencyServiceFor(context: AppContext): IdempotencyService {
  return new IdempotencyService({
    db: context.db,
    clock: context.clock,
    retentionHours: context.config.idempotencyRetentionHours,
  });
}

/**
 * Route-level hooks that make a route honour `Idempotency-Key` (opt in by spreading them into
 * the route options). They run after authentication and body validation, so a malformed body
 * (400) never claims a key. `preHandler` claims or replays; `onSend` stores the response (or
 * frees the key when the response is not kept); `onResponse` frees a claim nothing answered.
 */
export function idempotentRoute(options: IdempotentRouteOptions): IdempotentRouteHooks {
  const claims = new WeakMap<FastifyRequest, ClaimToken>();
  const serviceOf = (request: FastifyRequest) => options.service ?? request.server.idempotency;

  const preHandler: preHandlerAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
    if (key === undefined) return;
    const claim = await serviceOf(request).claim({
      scope: options.scopeOf(request),
      key,
      method: request.method,
      path: request.url,
      body: request.body,
    });
    if (claim.kind === 'claimed') {
      claims.set(request, claim.token);
      return;
    }
    const { response } = claim;
    reply.code(response.status).header(REPLAYED_HEADER, 'true');
    if (response.contentType) reply.type(response.contentType);
    await reply.send(response.body);
  };

  const onSend: onSendAsyncHookHandler = async (request, reply, payload) => {
    const token = claims.get(request);
    if (!token) return payload;
    claims.delete(request);
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    const contentType = reply.getHeader('content-type');
    try {
      if (body === undefined) await serviceOf(request).release(token);
      else
        await serviceOf(request).complete(token, {
          status: reply.statusCode,
          contentType: typeof contentType === 'string' ? contentType : null,
          body,
        });
    } catch (error) {
      // The request itself succeeded or failed already; an unrecorded key is freed by the lock timeout.
      request.log.error({ err: error }, 'could not record the idempotent response');
    }
    return payload;
  };

  const onResponse: onResponseAsyncHookHandler = async (request) => {
    const token = claims.get(request);
    if (!token) return;
    claims.delete(request);
    await serviceOf(request).release(token);
  };

  return { preHandler, onSend, onResponse, config: { idempotencyKey: true } };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Idempotency-Key records with the configured retention (see `idempotentRoute`). */
    idempotency: IdempotencyService;
  }
}
