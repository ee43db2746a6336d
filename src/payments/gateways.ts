import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config/config.js';
import type { PaymentGatewayName } from '../config/payments.js';
import type { AppContext } from '../context.js';
import type { PaymentGateway, PaymentGateways, PaymentRoute } from './gateway.js';
import { AccountGateway } from './account/gateway.js';
import { SandboxGateway } from './sandbox/gateway.js';
import { sandboxChallengeRoutes } from './sandbox/routes.js';
import { StripeGateway } from './stripe/gateway.js';
import { STRIPE_RETURN_PATH, stripeReturnRoutes } from './stripe/routes.js';

/** Path of the sandbox issuer's challenge pages (served at the root, outside BASE_PATH). */
export const SANDBOX_CHALLENGE_PATH = '/sandbox/3ds';

/** One payment gateway adapter: how to build it, and any public pages it serves itself. */
interface GatewayAdapter {
  create(context: AppContext): PaymentGateway;
  routes?: FastifyPluginAsync<{ context: AppContext }>;
}

/** Every adapter `PAYMENT_GATEWAY` (and `PAYMENT_GATEWAY_BRANDS`) may name; config refuses `sandbox` in production. */
const ADAPTERS: Record<PaymentGatewayName, GatewayAdapter> = {
  sandbox: {
    create: (context) =>
      new SandboxGateway({
        db: context.db,
        clock: context.clock,
        challengeBaseUrl: `${context.config.publicBaseUrl}${SANDBOX_CHALLENGE_PATH}`,
      }),
    routes: sandboxChallengeRoutes,
  },
  stripe: {
    create: (context) => {
      const { stripe } = context.config.payments;
      // Config requires the key whenever a brand pays through Stripe.
      if (!stripe) throw new Error('the stripe gateway has no settings');
      const defaultReturnUrl = `${context.config.publicBaseUrl}${STRIPE_RETURN_PATH}`;
      return new StripeGateway({ settings: stripe, clock: context.clock, defaultReturnUrl });
    },
    routes: stripeReturnRoutes,
  },
};

/** The card gateway of brands without an override (`PAYMENT_GATEWAY`), or the one named. */
export function paymentGatewayFor(context: AppContext, name = context.config.paymentGateway): PaymentGateway {
  return ADAPTERS[name].create(context);
}

/** The card gateway's name of a brand: its override in `PAYMENT_GATEWAY_BRANDS`, else `PAYMENT_GATEWAY`. */
const cardGatewayOf = (config: AppConfig, brandCode: string): PaymentGatewayName =>
  config.payments.brandGateways[brandCode as keyof typeof config.payments.brandGateways] ?? config.paymentGateway;

/**
 * The gateway of every route this process serves: a card payment goes to its brand's card gateway
 * (each built once per process), an on-account one to the partner's account at the brand
 * (account/gateway.ts).
 */
export function paymentGatewaysFor(context: AppContext, card = paymentGatewayFor(context)): PaymentGateways {
  const cards = new Map<PaymentGatewayName, PaymentGateway>([[context.config.paymentGateway, card]]);
  const cardGateway = (name: PaymentGatewayName): PaymentGateway => {
    const built = cards.get(name) ?? paymentGatewayFor(context, name);
    cards.set(name, built);
    return built;
  };
  const account = { db: context.db, clock: context.clock };
  return {
    gatewayFor(route: PaymentRoute): PaymentGateway {
      switch (route.paymentMethod) {
        case 'CARD':
          return cardGateway(cardGatewayOf(context.config, route.brandCode));
        case 'ON_ACCOUNT':
          return new AccountGateway(account, { partnerId: route.partnerId, brandCode: route.brandCode });
      }
    },
  };
}

/** Public routes of the card gateways some brand uses (the sandbox's 3-D Secure pages, Stripe's return page). */
export function paymentGatewayRoutes(config: AppConfig): NonNullable<GatewayAdapter['routes']>[] {
  const names = new Set([config.paymentGateway, ...Object.values(config.payments.brandGateways)]);
  return [...names].flatMap((name) => ADAPTERS[name].routes ?? []);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The card gateway of brands without an override (`PAYMENT_GATEWAY`). */
    paymentGateway: PaymentGateway;
    /** The gateway of each payment route (brand and method): what the money flow asks. */
    paymentGateways: PaymentGateways;
  }
}
