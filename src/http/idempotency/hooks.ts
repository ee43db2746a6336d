import type {
  FastifyReply,
  FastifyRequest,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { AppContext } from '../../context.js';
import { IdempotencyKeyMalformed, IdempotencyKeyRequired } from './errors.js';
import {
  IdempotencyService,
  parseIdempotencyKey,
  type ClaimToken,
  type HeldClaim,
  type HeldKey,
  type InFlightVerdict,
} from './service.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on a replayed response, as Stripe does. */
export const REPLAYED_HEADER = 'idempotent-replayed';

export interface IdempotentRouteOptions {
  /** Defaults to the app's `idempotency` decoration. */
  readonly service?: IdempotencyService;
  /** Who owns the key: the partner (keys never cross partners). */
  scopeOf(request: FastifyRequest): string;
  /** Judges a claim still in flight (its holder may have died); without it a retry waits for the lock timeout. */
  readonly inFlight?: (request: FastifyRequest, claim: HeldClaim) => Promise<InFlightVerdict | undefined>;
  /** A request without a key is refused (400 `IDEMPOTENCY_KEY_REQUIRED`) with this message; absent, the key is optional. */
  readonly required?: string;
}

/** Keys held by requests now running, so their handlers can tie what they start to the key. */
const heldKeys = new WeakMap<FastifyRequest, HeldKey>();
/** Requests whose answer must not be kept for their key (a retry with it runs afresh). */
const notKept = new WeakSet<FastifyRequest>();

/** How many times a header came, from the raw name/value list (names in any case). */
function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === name) count += 1;
  return count;
}

/**
 * The Idempotency-Key record this request holds, if it carries a key and claimed it, with the
 * record an earlier request with the key started (`subject`): the handler answers from that one.
 */
export function heldIdempotencyKey(request: FastifyRequest): HeldKey | undefined {
  return heldKeys.get(request);
}

/**
 * The answer is not final (e.g. a gateway outage the contract says to retry): the key is released
 * instead of kept, and no longer names what the request started, so a retry runs afresh.
 */
export function doNotKeepAnswer(request: FastifyRequest): void {
  notKept.add(request);
}

export interface IdempotentRouteHooks {
  preHandler: preHandlerAsyncHookHandler;
  onSend: onSendAsyncHookHandler;
  onResponse: onResponseAsyncHookHandler;
  /** Tells the OpenAPI document (http/openapi/shared.ts) that the route reads `Idempotency-Key`, and whether it must come. */
  config: { idempotencyKey: IdempotencyKeyUse };
}

/** How a route reads `Idempotency-Key`. */
export type IdempotencyKeyUse = 'optional' | 'required';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route honours `Idempotency-Key` (set by `idempotentRoute`). */
    idempotencyKey?: IdempotencyKeyUse;
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
 * releases the key when the response is not kept); `onResponse` releases a claim nothing answered.
 */
export function idempotentRoute(options: IdempotentRouteOptions): IdempotentRouteHooks {
  const claims = new WeakMap<FastifyRequest, ClaimToken>();
  const serviceOf = (request: FastifyRequest) => options.service ?? request.server.idempotency;

  const preHandler: preHandlerAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    // Node joins repeated headers with ", " into one value: two keys must not become a third.
    if (headerCount(request.raw.rawHeaders, IDEMPOTENCY_KEY_HEADER) > 1)
      throw new IdempotencyKeyMalformed('Send exactly one Idempotency-Key header.');
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
    if (key === undefined && options.required !== undefined) throw new IdempotencyKeyRequired(options.required);
    if (key === undefined) return;
    const { inFlight } = options;
    const claim = await serviceOf(request).claim(
      {
        scope: options.scopeOf(request),
        key,
        method: request.method,
        path: request.url,
        body: request.body,
      },
      inFlight ? (held) => inFlight(request, held) : undefined,
    );
    if (claim.kind === 'claimed') {
      claims.set(request, claim.token);
      heldKeys.set(request, { id: claim.token.id, ...(claim.subject === undefined ? {} : { subject: claim.subject }) });
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
      if (notKept.has(request)) await serviceOf(request).release(token, { unbind: true });
      else if (body === undefined) await serviceOf(request).release(token);
      else
        await serviceOf(request).complete(token, {
          status: reply.statusCode,
          contentType: typeof contentType === 'string' ? contentType : null,
          body,
        });
    } catch (error) {
      // The request itself succeeded or failed already; a key left in flight is judged by a retry (`inFlight`).
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

  return {
    preHandler,
    onSend,
    onResponse,
    config: { idempotencyKey: options.required === undefined ? 'optional' : 'required' },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Idempotency-Key records with the configured retention (see `idempotentRoute`). */
    idempotency: IdempotencyService;
  }
}
