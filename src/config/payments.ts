import { Type, type Static } from 'typebox';
import { BRAND_CODES, type BrandCode } from '../kernel/brands.js';

/**
 * Which card gateway moves each brand's money, and the Stripe adapter's settings (parsed with the
 * rest in config/config.ts). A gateway named here has one adapter in payments/gateways.ts.
 */
export const PAYMENT_GATEWAY_NAMES = ['sandbox', 'stripe'] as const;
export type PaymentGatewayName = (typeof PAYMENT_GATEWAY_NAMES)[number];

/** Gateways that move no real money; production refuses them for every brand. */
const SANDBOX_GATEWAYS: readonly PaymentGatewayName[] = ['sandbox'];

/** Hosts a production process may reach over plain http (a stand-in on the same machine). */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];

const BRAND_GATEWAYS = `^(${BRAND_CODES.join('|')}):(${PAYMENT_GATEWAY_NAMES.join('|')})(,(${BRAND_CODES.join('|')}):(${PAYMENT_GATEWAY_NAMES.join('|')}))*$`;

export const PaymentEnvSchema = Type.Object({
  PAYMENT_GATEWAY: Type.Optional(
    Type.Enum([...PAYMENT_GATEWAY_NAMES], {
      description: 'Card gateway of every brand without an override; default sandbox (staging), stripe (production).',
    }),
  ),
  PAYMENT_GATEWAY_BRANDS: Type.Optional(
    Type.String({
      pattern: BRAND_GATEWAYS,
      description: 'Per-brand overrides of PAYMENT_GATEWAY, e.g. `nomad:sandbox,brandau:stripe`.',
    }),
  ),
  STRIPE_SECRET_KEY: Type.Optional(
    Type.String({ pattern: '^(sk|rk)_(test|live)_[A-Za-z0-9_]+$', description: 'Stripe secret (or restricted) key.' }),
  ),
  STRIPE_API_HOST: Type.String({ default: 'api.stripe.com', pattern: '^[A-Za-z0-9.:-]+$' }),
  STRIPE_API_PORT: Type.Integer({ default: 443, minimum: 1, maximum: 65535 }),
  STRIPE_API_PROTOCOL: Type.Enum(['https', 'http'], { default: 'https' }),
  STRIPE_TIMEOUT_MS: Type.Integer({
    default: 20_000,
    minimum: 100,
    maximum: 120_000,
    description: 'Longest wait for one Stripe call before the SDK gives up on it (and retries, same key).',
  }),
  STRIPE_MAX_NETWORK_RETRIES: Type.Integer({
    default: 2,
    minimum: 0,
    maximum: 5,
    description:
      "The SDK's own retries of a call that failed on the network, a 409, 429 or 5xx (same idempotency key).",
  }),
});

type PaymentEnv = Static<typeof PaymentEnvSchema>;

/** Where and how the Stripe adapter calls Stripe (or its stand-in). */
export interface StripeSettings {
  /** Never logged, never in an error. */
  readonly secretKey: string;
  readonly host: string;
  readonly port: number;
  readonly protocol: 'https' | 'http';
  readonly timeoutMs: number;
  readonly maxNetworkRetries: number;
}

function gatewayOf(env: PaymentEnv, production: boolean): PaymentGatewayName {
  return env.PAYMENT_GATEWAY ?? (production ? 'stripe' : 'sandbox');
}

function brandOverrides(env: PaymentEnv): Partial<Record<BrandCode, PaymentGatewayName>> {
  const overrides: Partial<Record<BrandCode, PaymentGatewayName>> = {};
  for (const pair of (env.PAYMENT_GATEWAY_BRANDS ?? '').split(',').filter(Boolean)) {
    const [brand, gateway] = pair.split(':') as [BrandCode, PaymentGatewayName];
    overrides[brand] = gateway;
  }
  return overrides;
}

/** Every gateway some brand uses. */
function gatewaysInUse(env: PaymentEnv, production: boolean): Set<PaymentGatewayName> {
  const gateway = gatewayOf(env, production);
  const overrides = brandOverrides(env);
  return new Set(BRAND_CODES.map((brand) => overrides[brand] ?? gateway));
}

export function paymentConfigProblems(env: PaymentEnv, production: boolean): string[] {
  const problems: string[] = [];
  const inUse = gatewaysInUse(env, production);
  if (production && [...inUse].some((gateway) => SANDBOX_GATEWAYS.includes(gateway)))
    problems.push(
      'PAYMENT_GATEWAY: the sandbox gateway is refused when APP_ENV=production (for every brand, PAYMENT_GATEWAY_BRANDS too)',
    );
  if (!inUse.has('stripe')) return problems;
  if (!env.STRIPE_SECRET_KEY)
    problems.push('STRIPE_SECRET_KEY: required when a brand pays through stripe (or STRIPE_SECRET_KEY_FILE)');
  if (production && env.STRIPE_API_PROTOCOL === 'http' && !LOOPBACK_HOSTS.includes(env.STRIPE_API_HOST))
    problems.push('STRIPE_API_PROTOCOL: http is refused when APP_ENV=production unless STRIPE_API_HOST is loopback');
  return problems;
}

/** Call after `paymentConfigProblems` found none. */
export function paymentConfigFrom(env: PaymentEnv, production: boolean) {
  const key = env.STRIPE_SECRET_KEY;
  const stripe: StripeSettings | undefined =
    gatewaysInUse(env, production).has('stripe') && key
      ? Object.freeze({
          secretKey: key,
          host: env.STRIPE_API_HOST,
          port: env.STRIPE_API_PORT,
          protocol: env.STRIPE_API_PROTOCOL,
          timeoutMs: env.STRIPE_TIMEOUT_MS,
          maxNetworkRetries: env.STRIPE_MAX_NETWORK_RETRIES,
        })
      : undefined;
  return {
    /** The card gateway of a brand without an override. */
    paymentGateway: gatewayOf(env, production),
    payments: Object.freeze({
      /** Brands whose card gateway is not `paymentGateway`. */
      brandGateways: Object.freeze(brandOverrides(env)),
      /** Set when some brand pays through Stripe. */
      ...(stripe ? { stripe } : {}),
    }),
  };
}
