import { Type, type Static } from 'typebox';

/** How a yes/no setting is written in the environment. */
export const ENV_FLAG_VALUES = ['true', 'false'] as const;

/** Request budgets per window; merged into the main environment schema in src/config/config.ts. */
export const RateLimitEnvSchema = Type.Object({
  RATE_LIMITS: Type.Enum([...ENV_FLAG_VALUES], {
    default: 'true',
    description: 'Per-partner and token-endpoint request limits (429 past them); on unless set to false.',
  }),
  RATE_LIMIT_WINDOW_SECONDS: Type.Integer({ default: 60, minimum: 1, maximum: 86_400 }),
  RATE_LIMIT_READS: Type.Integer({
    default: 3000,
    minimum: 1,
    description: 'Reads (products, plans, quote and policy GETs) per partner per window.',
  }),
  RATE_LIMIT_QUOTE_WRITES: Type.Integer({
    default: 600,
    minimum: 1,
    description: 'Quote creations and updates per partner per window.',
  }),
  RATE_LIMIT_PURCHASES: Type.Integer({
    default: 120,
    minimum: 1,
    description: 'Purchase requests per partner per window.',
  }),
  RATE_LIMIT_TOKEN_PER_ADDRESS: Type.Integer({
    default: 120,
    minimum: 1,
    description: 'Token-endpoint requests per client address per window.',
  }),
  RATE_LIMIT_TOKEN_PER_USERNAME: Type.Integer({
    default: 60,
    minimum: 1,
    description: 'Password sign-ins per username per window.',
  }),
  RATE_LIMIT_DOCUMENT_LINK_PER_ADDRESS: Type.Integer({
    default: 30,
    minimum: 1,
    description: 'Customer document-link requests (page and downloads, any link value) per client address per window.',
  }),
  RATE_LIMIT_SCREENING_LINK_PER_ADDRESS: Type.Integer({
    default: 60,
    minimum: 1,
    description: 'Hosted screening page requests (any link value, pages and answers) per client address per window.',
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://',
      description: 'Redis holding the limit counters, shared by every server process; unset means in-process counters.',
    }),
  ),
  RATE_LIMIT_REDIS_PREFIX: Type.String({ default: 'partner-api:rate-limit:', minLength: 1, maxLength: 100 }),
});

type RateLimitEnv = Static<typeof RateLimitEnvSchema>;

/** The budgets by name; the names appear in the `RateLimit-Policy` and `RateLimit` headers. */
export type LimitClass =
  'reads' | 'quote-writes' | 'purchases' | 'token-address' | 'token-username' | 'document-link' | 'screening-link';

/** Request limits per partner and route class, and on the token endpoint: the shape `rateLimitConfigFrom` builds. */
export type RateLimitConfig = ReturnType<typeof rateLimitConfigFrom>;

export function rateLimitConfigFrom(env: RateLimitEnv) {
  return Object.freeze({
    enabled: env.RATE_LIMITS === 'true',
    windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
    quotas: Object.freeze<Record<LimitClass, number>>({
      reads: env.RATE_LIMIT_READS,
      'quote-writes': env.RATE_LIMIT_QUOTE_WRITES,
      purchases: env.RATE_LIMIT_PURCHASES,
      'token-address': env.RATE_LIMIT_TOKEN_PER_ADDRESS,
      'token-username': env.RATE_LIMIT_TOKEN_PER_USERNAME,
      'document-link': env.RATE_LIMIT_DOCUMENT_LINK_PER_ADDRESS,
      'screening-link': env.RATE_LIMIT_SCREENING_LINK_PER_ADDRESS,
    }),
    /** Counters in Redis (shared by every process) when set; in this process otherwise. */
    redisUrl: env.REDIS_URL,
    redisPrefix: env.RATE_LIMIT_REDIS_PREFIX,
  });
}
