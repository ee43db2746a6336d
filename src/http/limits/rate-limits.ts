/**
 * Request budgets (issue 18 item 7): per partner by route class (reads, quote writes, purchases)
 * and, on the token endpoint, per client address and per username. Counting is
 * @fastify/rate-limit's (fixed windows); its store is this process's memory, or Redis when
 * REDIS_URL is set, so several server processes share one budget.
 *
 * Headers: a 429 carries `Retry-After` and the IETF draft's `RateLimit-Policy` and `RateLimit`
 * (draft-ietf-httpapi-ratelimit-headers). Successful answers carry none of them, on purpose:
 * cached reads are answered as stored bytes (front-cache.ts) and every header there is a cost on
 * the hottest path; a partner learns the policy from the contract and from its first 429.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimited, spentBudgetHeaders } from '../../kernel/errors.js';
import type { LimitClass, RateLimitConfig } from '../../config/rate-limits.js';

/** What a budget says about one more request. */
export type Verdict =
  { readonly allowed: true } | { readonly allowed: false; readonly headers: Record<string, string> };

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * The library's limiter takes a request; ours carries only what to count (the same from a Fastify
 * hook and from the front cache, which has no Fastify request).
 */
const LIMIT = Symbol('rate-limit budget');
interface Carrier {
  readonly [LIMIT]: { readonly key: string; readonly max: number };
  readonly routeOptions: { readonly config: object };
}
const carrierOf = (request: FastifyRequest) => (request as unknown as Carrier)[LIMIT];

/** Counters this process keeps without Redis; least recently used ones beyond this are forgotten. */
const LOCAL_COUNTERS = 100_000;

/** The budgets of one app; `take` counts one request against one budget. */
export class RateLimits {
  constructor(
    private readonly config: RateLimitConfig,
    private readonly limiter: Limiter,
  ) {}

  async take(limitClass: LimitClass, key: string): Promise<Verdict> {
    const max = this.config.quotas[limitClass];
    const carrier: Carrier = { [LIMIT]: { key: `${limitClass}:${key}`, max }, routeOptions: { config: {} } };
    const state = await this.limiter(carrier as unknown as FastifyRequest);
    if (state.isAllowed || !state.isExceeded) return { allowed: true };
    const resetSeconds = Math.max(1, state.ttlInSeconds);
    return {
      allowed: false,
      headers: spentBudgetHeaders(
        { name: limitClass, quota: max, windowSeconds: this.config.windowSeconds },
        resetSeconds,
      ),
    };
  }

  /** One more read for a partner (the front cache asks this before answering from memory). */
  admitRead(partnerId: number): Promise<Verdict> {
    return this.take('reads', `partner:${partnerId}`);
  }
}

/**
 * Registers @fastify/rate-limit with no route limited by itself (`global: false`): only `take`
 * counts, in one store, keyed `<class>:<who>`. Undefined when RATE_LIMITS=false.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  config: RateLimitConfig,
): Promise<RateLimits | undefined> {
  if (!config.enabled) return undefined;
  const redis = config.redisUrl ? await redisFor(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    global: false,
    timeWindow: config.windowSeconds * 1000,
    max: (request) => carrierOf(request).max,
    keyGenerator: (request) => carrierOf(request).key,
    ...(redis ? { redis, nameSpace: config.redisPrefix } : { cache: LOCAL_COUNTERS }),
    // Redis away: serve unlimited rather than fail every request (the error is logged by redisFor).
    skipOnError: true,
  });
  // Without options the limiter uses the plugin's own store and settings above.
  return new RateLimits(config, app.createRateLimit());
}

/** How long start-up waits for Redis, and the longest a request waits for it. */
const REDIS_CONNECT_MS = 2000;
const REDIS_COMMAND_MS = 500;

async function redisFor(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, {
    connectTimeout: REDIS_CONNECT_MS,
    commandTimeout: REDIS_COMMAND_MS,
    maxRetriesPerRequest: 1,
    // While Redis is away a command fails at once (the request is served unlimited) instead of waiting in a queue.
    enableOfflineQueue: false,
  });
  let lastLoggedAt = 0;
  redis.on('error', (error: Error) => {
    // ioredis reports every failed reconnection; one line per 10 s is enough to alert.
    if (Date.now() - lastLoggedAt < 10_000) return;
    lastLoggedAt = Date.now();
    app.log.warn({ err: error }, 'rate-limit store (Redis) unavailable; limits are not enforced meanwhile');
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  // Start counting in Redis from the first request when it answers; never hold start-up for long.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, REDIS_CONNECT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', done);
    redis.once('error', done);
  });
  return redis;
}

/** Which budget a partner request spends: reads, purchases, or (any other write) quote writes. */
function routeClassOf(request: FastifyRequest): LimitClass {
  if (request.method === 'GET' || request.method === 'HEAD') return 'reads';
  return request.routeOptions.url?.endsWith('/purchase') ? 'purchases' : 'quote-writes';
}

/** Counts every request of a bearer-protected scope against its partner's budget (after the guard). */
export function limitPartnerRequests(scope: FastifyInstance, limits: RateLimits | undefined): void {
  if (!limits) return;
  scope.addHook('onRequest', async (request) => {
    const principal = request.principal;
    if (!principal) return;
    const limitClass = routeClassOf(request);
    const verdict = await limits.take(limitClass, `partner:${principal.partnerId}`);
    if (!verdict.allowed) {
      throw new RateLimited(
        `Too many ${limitClass} requests for partner ${principal.partnerCode}; retry after ${verdict.headers['retry-after']} s.`,
        verdict.headers,
      );
    }
  });
}

/**
 * Per client address budget of the customer's document link (class `document-link`): guessing link
 * values is slowed by the address, whatever value is tried. `refuse` answers the 429 in the page's own form.
 */
export function documentLinkLimit(
  limits: RateLimits | undefined,
  refuse: (reply: FastifyReply, headers: Record<string, string>) => FastifyReply,
  limitClass: Extract<LimitClass, 'document-link' | 'screening-link'> = 'document-link',
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined> {
  return async (request, reply) => {
    if (!limits) return undefined;
    const verdict = await limits.take(limitClass, `address:${request.ip}`);
    // Returning the reply ends the request here (an async hook that answered).
    return verdict.allowed ? undefined : refuse(reply, verdict.headers);
  };
}
