import { Type, type Static } from 'typebox';
import Value from 'typebox/value';
import { AuthEnvSchema, authConfigFrom, authConfigProblems } from './auth.js';
import { withSecretFiles } from './secret-files.js';
import { AreaEnvSchema, areaConfigProblems, areaConfigsFrom } from './areas.js';
import { ENV_FLAG_VALUES, RateLimitEnvSchema, rateLimitConfigFrom } from './rate-limits.js';
import { PaymentEnvSchema, paymentConfigFrom, paymentConfigProblems } from './payments.js';

/**
 * Every setting the service reads, validated once at start into a frozen object.
 * Staging and production differ only by these values (see README, "Configuration").
 */
/**
 * The purchase steps after which the crash-test hook may kill the process: its start's commit, a
 * 3-D Secure continuation's key recorded, the gateway's approval, the issuing commit, the gateway's
 * capture and its commit.
 */
export const PURCHASE_CRASH_POINTS = ['start', 'continue', 'authorise', 'issue', 'capture', 'captured'] as const;
export type PurchaseCrashPoint = (typeof PURCHASE_CRASH_POINTS)[number];

const EnvSchema = Type.Object({
  APP_ENV: Type.Enum(['staging', 'production'], {
    default: 'staging',
    description: 'staging: sandbox payments and demo data allowed; production: refuses both.',
  }),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  PORT: Type.Integer({ default: 3000, minimum: 0, maximum: 65535 }),
  BASE_PATH: Type.String({
    default: '',
    pattern: '^(/[A-Za-z0-9._~-]+)*$',
    description: "Prefix of every contract path, e.g. '/api'; empty for none.",
  }),
  PUBLIC_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s/]+(/.*)?$',
      description: 'Absolute URL partners use to reach this server.',
    }),
  ),
  DATABASE_URL: Type.Optional(
    Type.String({ pattern: '^postgres(ql)?://', description: 'PostgreSQL; unset means embedded SQLite.' }),
  ),
  SQLITE_PATH: Type.String({ default: 'data/partner-api.sqlite', minLength: 1 }),
  DB_POOL_SIZE: Type.Integer({ default: 10, minimum: 1, maximum: 200 }),
  // Database waits are bounded so a lost or partitioned database fails a request in bounded time
  // (503 DATABASE_UNAVAILABLE) instead of holding it as long as the outage (src/db/faults.ts).
  DB_CONNECT_TIMEOUT_MS: Type.Integer({
    default: 5000,
    minimum: 100,
    maximum: 600_000,
    description: 'PostgreSQL: longest wait for a new connection, or for a free one of the pool.',
  }),
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 100,
    maximum: 3_600_000,
    description:
      'PostgreSQL: statement_timeout of every connection; the client gives up 1 s later when the server does not answer. Migrations run without it.',
  }),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: Type.Integer({
    default: 15_000,
    minimum: 100,
    maximum: 3_600_000,
    description: 'PostgreSQL: a session idle inside a transaction this long is ended by the server.',
  }),
  DB_BUSY_TIMEOUT_MS: Type.Integer({
    default: 5000,
    minimum: 0,
    maximum: 600_000,
    description:
      "SQLite: how long a write waits for the file's write lock while another process holds it, before 503; on a timer, other requests are served meanwhile.",
  }),
  DB_APPLICATION_NAME: Type.String({
    default: 'partner-api',
    minLength: 1,
    maxLength: 63,
    pattern: '^[\\x20-\\x7e]+$',
    description: "PostgreSQL: application_name of the server's connections (pg_stat_activity).",
  }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  BODY_LIMIT_BYTES: Type.Integer({ default: 262_144, minimum: 1024, maximum: 10_485_760 }),
  SHUTDOWN_DRAIN_MS: Type.Integer({
    default: 1000,
    minimum: 0,
    description: 'After SIGTERM, keep serving this long (readiness failing) before closing the listener.',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100 }),
  // Slow and oversized requests (issue 18, item 9): a connection may not hold a socket open for ever.
  HEADERS_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 100,
    maximum: 600_000,
    description: 'A request whose headers have not all arrived after this long is answered 408 and closed.',
  }),
  REQUEST_TIMEOUT_MS: Type.Integer({
    default: 30_000,
    minimum: 100,
    maximum: 3_600_000,
    description: 'A request (headers and body) not fully received after this long is answered 408 and closed.',
  }),
  KEEP_ALIVE_TIMEOUT_MS: Type.Integer({
    default: 72_000,
    minimum: 100,
    maximum: 600_000,
    description: 'An idle keep-alive connection is closed after this long (above common load balancers’ 60 s).',
  }),
  TOKEN_BODY_LIMIT_BYTES: Type.Integer({
    default: 8192,
    minimum: 512,
    maximum: 1_048_576,
    description: 'Largest form body the token endpoint reads; larger ones are answered 413.',
  }),
  DEMO_DATA: Type.Optional(Type.Enum([...ENV_FLAG_VALUES])),
  // Card gateways per brand and the Stripe adapter's settings (config/payments.ts).
  ...PaymentEnvSchema.properties,
  CATALOGUE_DIR: Type.String({
    default: 'catalogue',
    minLength: 1,
    description: 'Catalogue folder imported at start when demo data is on.',
  }),
  CATALOGUE_REFRESH_SECONDS: Type.Number({
    default: 5,
    minimum: 0,
    maximum: 3600,
    description: 'How often a process checks for a newer catalogue import.',
  }),
  ...AuthEnvSchema.properties,
  // Request limits per partner and on the token endpoint (issue 18 item 7; config/rate-limits.ts).
  ...RateLimitEnvSchema.properties,
  ...AreaEnvSchema.properties,
  IDEMPOTENCY_RETENTION_HOURS: Type.Integer({
    default: 24,
    minimum: 1,
    maximum: 720,
    description: 'How long an Idempotency-Key and its stored response are kept; afterwards the key may be reused.',
  }),
  PURCHASE_RECOVERY_GRACE_SECONDS: Type.Integer({
    default: 60,
    minimum: 0,
    maximum: 86_400,
    description:
      'Recovery leaves purchases changed within this many seconds alone (another process may still be working on them).',
  }),
  // Purchase recovery sweep (issue 18, items 2 and 4): every server process finishes abandoned purchases.
  PURCHASE_RECOVERY_INTERVAL_SECONDS: Type.Integer({
    default: 30,
    minimum: 1,
    maximum: 3600,
    description:
      'How often each server process sweeps for purchases left in flight (untouched for PURCHASE_RECOVERY_GRACE_SECONDS).',
  }),
  // Operations endpoints (issue 18 item 13): /metrics is private in production.
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description:
        'Bearer token /metrics requires when set. Unset: /metrics is refused (403) in production and open in staging.',
    }),
  ),
  PURCHASE_CRASH_AFTER: Type.Optional(
    Type.Enum([...PURCHASE_CRASH_POINTS], {
      description: 'Test hook: SIGKILL the process after this purchase step. Refused in production.',
    }),
  ),
});
type Env = Static<typeof EnvSchema>;

/** The defaults of the DB_* variables, for databases opened without a loaded configuration. */
export const DEFAULT_DATABASE_LIMITS = databaseLimitsFrom(Value.Default(EnvSchema, {}) as Env);

/** Bounds on database waits (see the DB_* variables above). */
export type DatabaseLimits = ReturnType<typeof databaseLimitsFrom>;

/** Where the data lives; a database opened without a loaded configuration has no `limits` (the defaults). */
export type DatabaseSettings = (
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly poolSize: number }
) & { readonly limits?: DatabaseLimits };

/** The configuration: the shape `loadConfig` builds from the schema above, declared nowhere else. */
export type AppConfig = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError listing every bad variable (never its value). */
export function loadConfig(given: NodeJS.ProcessEnv = process.env) {
  const { env: source, problems: fileProblems } = withSecretFiles(given);
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  const problems = [
    ...fileProblems,
    ...[...Value.Errors(EnvSchema, withDefaults)].map(
      (e) => `${e.instancePath.slice(1) || 'environment'}: ${e.message}`,
    ),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  const env = withDefaults as Env;

  const production = env.APP_ENV === 'production';
  const demoData = env.DEMO_DATA ? env.DEMO_DATA === 'true' : !production;
  if (production && demoData) problems.push('DEMO_DATA: demo data is refused when APP_ENV=production');
  problems.push(...paymentConfigProblems(env, production));
  for (const hook of ['PURCHASE_CRASH_AFTER', 'POLICY_CHANGE_CRASH_AFTER'] as const)
    if (production && env[hook]) problems.push(`${hook}: the crash-test hook is refused when APP_ENV=production`);
  if (production && !env.PUBLIC_BASE_URL) problems.push('PUBLIC_BASE_URL: required when APP_ENV=production');
  if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS)
    problems.push('HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS (headers are part of the request)');
  problems.push(...authConfigProblems(env, production), ...areaConfigProblems(env, production));
  if (problems.length > 0) throw new ConfigError(problems);

  const limits = databaseLimitsFrom(env);
  const database: DatabaseSettings = env.DATABASE_URL
    ? Object.freeze({ kind: 'postgres' as const, url: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE, limits })
    : Object.freeze({ kind: 'sqlite' as const, path: env.SQLITE_PATH, limits });
  return Object.freeze({
    env: env.APP_ENV,
    host: env.HOST,
    port: env.PORT,
    basePath: env.BASE_PATH,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, ''),
    database,
    logLevel: env.LOG_LEVEL,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    /** Slow and oversized requests: time to receive headers, the whole request, and idle keep-alive time. */
    headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
    /** The token endpoint's body limit (its form fields are short; `bodyLimitBytes` is for JSON). */
    tokenBodyLimitBytes: env.TOKEN_BODY_LIMIT_BYTES,
    /** Load the demo catalogue, partners and users at start. */
    demoData,
    /** The card gateway of each brand (`paymentGateway`, `payments.brandGateways`) and Stripe's settings. */
    ...paymentConfigFrom(env, production),
    /** Seconds between checks for a catalogue version imported by another process. */
    catalogueRefreshSeconds: env.CATALOGUE_REFRESH_SECONDS,
    /** The catalogue folder `prepareDatabase` imports when demo data is on. */
    catalogueDir: env.CATALOGUE_DIR,
    /** Tokens, signing keys, password hashing and brute-force limits (config/auth.ts). */
    auth: authConfigFrom(env, production),
    idempotencyRetentionHours: env.IDEMPOTENCY_RETENTION_HOURS,
    /** Request limits per partner and route class, and on the token endpoint (http/limits/rate-limits.ts). */
    rateLimits: rateLimitConfigFrom(env),
    ...areaConfigsFrom(env, production),
    /** Purchases changed more recently than this are left to the process working on them. */
    purchaseRecoveryGraceSeconds: env.PURCHASE_RECOVERY_GRACE_SECONDS,
    purchaseRecoveryIntervalSeconds: env.PURCHASE_RECOVERY_INTERVAL_SECONDS,
    /** `Authorization: Bearer <this>` opens /metrics; unset: closed in production, open in staging. */
    ...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
    /** Crash-test hook (never in production): kill the process right after this purchase step. */
    ...(env.PURCHASE_CRASH_AFTER ? { purchaseCrashAfter: env.PURCHASE_CRASH_AFTER } : {}),
  });
}

function databaseLimitsFrom(env: Env) {
  return Object.freeze({
    connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    busyTimeoutMs: env.DB_BUSY_TIMEOUT_MS,
    applicationName: env.DB_APPLICATION_NAME,
  });
}
