import { Type, type Static } from 'typebox';

/** Signature algorithms an operator may choose; all asymmetric (RFC 8725: no shared secrets). */
export const JWT_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'RS256', 'PS256'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

/** Published in the README so staging works out of the box; production refuses it. */
export const DEMO_KEY_ENCRYPTION_SECRET = 'staging-demo-key-encryption-secret-not-for-production';

/** Identity settings; merged into the main environment schema in src/config/config.ts. */
export const AuthEnvSchema = Type.Object({
  JWT_ALGORITHM: Type.Enum([...JWT_ALGORITHMS], { default: 'ES256' }),
  JWT_ISSUER: Type.Optional(
    Type.String({ minLength: 1, description: '`iss` of access tokens; default PUBLIC_BASE_URL.' }),
  ),
  JWT_AUDIENCE: Type.String({ default: 'partner-api', minLength: 1 }),
  ACCESS_TOKEN_TTL_SECONDS: Type.Integer({ default: 3600, minimum: 60, maximum: 86_400 }),
  REFRESH_TOKEN_TTL_SECONDS: Type.Integer({ default: 2_592_000, minimum: 60 }),
  REFRESH_TOKEN_IDLE_SECONDS: Type.Integer({ default: 604_800, minimum: 60 }),
  KEY_ENCRYPTION_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  SIGNING_KEY_CACHE_SECONDS: Type.Integer({ default: 60, minimum: 0, maximum: 3600 }),
  USER_STATUS_CACHE_SECONDS: Type.Integer({ default: 5, minimum: 0, maximum: 300 }),
  ARGON2_MEMORY_KIB: Type.Integer({ default: 19_456, minimum: 64 }),
  ARGON2_TIME_COST: Type.Integer({ default: 2, minimum: 1, maximum: 20 }),
  LOGIN_FAILURE_WINDOW_SECONDS: Type.Integer({ default: 900, minimum: 1 }),
  LOGIN_SLOWDOWN_AFTER: Type.Integer({ default: 3, minimum: 0 }),
  LOGIN_DELAY_STEP_MS: Type.Integer({ default: 250, minimum: 0, maximum: 10_000 }),
  LOGIN_MAX_DELAY_MS: Type.Integer({ default: 3000, minimum: 0, maximum: 30_000 }),
  LOGIN_USER_FAILURE_LIMIT: Type.Integer({ default: 10, minimum: 1 }),
  LOGIN_IP_FAILURE_LIMIT: Type.Integer({ default: 50, minimum: 1 }),
});

type AuthEnv = Static<typeof AuthEnvSchema>;

/** Tokens, signing keys, password hashing and brute-force limits: the shape `authConfigFrom` builds. */
export type AuthConfig = ReturnType<typeof authConfigFrom>;

export function authConfigProblems(env: AuthEnv, production: boolean): string[] {
  const problems: string[] = [];
  if (production && (!env.KEY_ENCRYPTION_SECRET || env.KEY_ENCRYPTION_SECRET === DEMO_KEY_ENCRYPTION_SECRET)) {
    problems.push('KEY_ENCRYPTION_SECRET: a secret of your own (32+ characters) is required when APP_ENV=production');
  }
  if (env.REFRESH_TOKEN_IDLE_SECONDS > env.REFRESH_TOKEN_TTL_SECONDS) {
    problems.push('REFRESH_TOKEN_IDLE_SECONDS: must not exceed REFRESH_TOKEN_TTL_SECONDS');
  }
  return problems;
}

export function authConfigFrom(env: AuthEnv, production: boolean) {
  return Object.freeze({
    jwtAlgorithm: env.JWT_ALGORITHM,
    /** `iss`; undefined means the server's public base URL. */
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    /** Absolute lifetime of a refresh-token family, counted from the password login. */
    refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
    /** A refresh token unused for this long expires. */
    refreshTokenIdleSeconds: env.REFRESH_TOKEN_IDLE_SECONDS,
    keyEncryptionSecret: env.KEY_ENCRYPTION_SECRET ?? (production ? '' : DEMO_KEY_ENCRYPTION_SECRET),
    signingKeyCacheSeconds: env.SIGNING_KEY_CACHE_SECONDS,
    userStatusCacheSeconds: env.USER_STATUS_CACHE_SECONDS,
    argon2: Object.freeze({ memoryKib: env.ARGON2_MEMORY_KIB, timeCost: env.ARGON2_TIME_COST }),
    bruteForce: Object.freeze({
      windowSeconds: env.LOGIN_FAILURE_WINDOW_SECONDS,
      slowdownAfter: env.LOGIN_SLOWDOWN_AFTER,
      delayStepMs: env.LOGIN_DELAY_STEP_MS,
      maxDelayMs: env.LOGIN_MAX_DELAY_MS,
      userFailureLimit: env.LOGIN_USER_FAILURE_LIMIT,
      ipFailureLimit: env.LOGIN_IP_FAILURE_LIMIT,
    }),
  });
}
