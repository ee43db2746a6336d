import { Type, type Static } from 'typebox';
import Value from 'typebox/value';
import { AuthEnvSchema, authConfigFrom, authConfigProblems, type AuthConfig } from './auth/config.js';

/**
 * Every setting the service reads, validated once at start into a frozen object.
 * Staging and production differ only by these values (see README, "Configuration").
 */
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
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  BODY_LIMIT_BYTES: Type.Integer({ default: 262_144, minimum: 1024, maximum: 10_485_760 }),
  SHUTDOWN_DRAIN_MS: Type.Integer({
    default: 1000,
    minimum: 0,
    description: 'After SIGTERM, keep serving this long (readiness failing) before closing the listener.',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100 }),
  DEMO_DATA: Type.Optional(Type.Enum(['true', 'false'])),
  PAYMENT_GATEWAY: Type.Optional(Type.Enum(['sandbox'])),
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
  // Operations endpoints (issue 18 item 13): /metrics is private in production.
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description:
        'Bearer token /metrics requires when set. Unset: /metrics is refused (403) in production and open in staging.',
    }),
  ),
  PURCHASE_CRASH_AFTER: Type.Optional(
    Type.Enum(['authorise', 'issue'], {
      description: 'Test hook: SIGKILL the process after this purchase step. Refused in production.',
    }),
  ),
});
type Env = Static<typeof EnvSchema>;

/** Gateways that move no real money; production refuses them. */
const SANDBOX_GATEWAYS: readonly string[] = ['sandbox'];

export interface AppConfig {
  readonly env: 'staging' | 'production';
  readonly host: string;
  readonly port: number;
  readonly basePath: string;
  readonly publicBaseUrl: string;
  readonly database:
    | { readonly kind: 'sqlite'; readonly path: string }
    | { readonly kind: 'postgres'; readonly url: string; readonly poolSize: number };
  readonly logLevel: string;
  readonly bodyLimitBytes: number;
  readonly shutdownDrainMs: number;
  readonly shutdownTimeoutMs: number;
  /** Load the demo catalogue, partners and users at start. */
  readonly demoData: boolean;
  readonly paymentGateway: 'sandbox';
  /** Seconds between checks for a catalogue version imported by another process. */
  readonly catalogueRefreshSeconds: number;
  /** The catalogue folder `prepareDatabase` imports when demo data is on. */
  readonly catalogueDir: string;
  /** Tokens, signing keys, password hashing and brute-force limits (src/auth/config.ts). */
  readonly auth: AuthConfig;
  readonly idempotencyRetentionHours: number;
  /** Purchases changed more recently than this are left to the process working on them. */
  readonly purchaseRecoveryGraceSeconds: number;
  /** `Authorization: Bearer <this>` opens /metrics; unset: closed in production, open in staging. */
  readonly metricsToken?: string;
  /** Crash-test hook (never in production): kill the process right after this purchase step. */
  readonly purchaseCrashAfter?: 'authorise' | 'issue';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError listing every bad variable (never its value). */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  const problems = [...Value.Errors(EnvSchema, withDefaults)].map(
    (e) => `${e.instancePath.slice(1) || 'environment'}: ${e.message}`,
  );
  if (problems.length > 0) throw new ConfigError(problems);
  const env = withDefaults as Env;

  const production = env.APP_ENV === 'production';
  const demoData = env.DEMO_DATA ? env.DEMO_DATA === 'true' : !production;
  const paymentGateway = env.PAYMENT_GATEWAY ?? 'sandbox';
  if (production && demoData) problems.push('DEMO_DATA: demo data is refused when APP_ENV=production');
  if (production && SANDBOX_GATEWAYS.includes(paymentGateway)) {
    problems.push('PAYMENT_GATEWAY: the sandbox gateway is refused when APP_ENV=production');
  }
  if (production && env.PURCHASE_CRASH_AFTER)
    problems.push('PURCHASE_CRASH_AFTER: the crash-test hook is refused when APP_ENV=production');
  if (production && !env.PUBLIC_BASE_URL) problems.push('PUBLIC_BASE_URL: required when APP_ENV=production');
  problems.push(...authConfigProblems(env, production));
  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    env: env.APP_ENV,
    host: env.HOST,
    port: env.PORT,
    basePath: env.BASE_PATH,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, ''),
    database: env.DATABASE_URL
      ? Object.freeze({ kind: 'postgres' as const, url: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE })
      : Object.freeze({ kind: 'sqlite' as const, path: env.SQLITE_PATH }),
    logLevel: env.LOG_LEVEL,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    demoData,
    paymentGateway,
    catalogueRefreshSeconds: env.CATALOGUE_REFRESH_SECONDS,
    catalogueDir: env.CATALOGUE_DIR,
    auth: authConfigFrom(env, production),
    idempotencyRetentionHours: env.IDEMPOTENCY_RETENTION_HOURS,
    purchaseRecoveryGraceSeconds: env.PURCHASE_RECOVERY_GRACE_SECONDS,
    ...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
    ...(env.PURCHASE_CRASH_AFTER ? { purchaseCrashAfter: env.PURCHASE_CRASH_AFTER } : {}),
  });
}
