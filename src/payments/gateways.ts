import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config/config.js';
import type { AppContext } from '../context.js';
import type { PaymentGateway, PaymentGateways, PaymentRoute } from './gateway.js';
import { AccountGateway } from './account/gateway.js';
import { SandboxGateway } from './sandbox/gateway.js';
import { sandboxChallengeRoutes } from './sandbox/routes.js';

/** Path of the sandbox issuer's challenge pages (served at the root, outside BASE_PATH). */
export const SANDBOX_CHALLENGE_PATH = '/sandbox/3ds';

/** One payment gateway adapter: how to build it, and any public pages it serves itself. */
interface GatewayAdapter {
  create(context: AppContext): PaymentGateway;
  routes?: FastifyPluginAsync<{ context: AppContext }>;
}

/** Every adapter `PAYMENT_GATEWAY` may name (config refuses `sandbox` in production). */
const ADAPTERS: Record<AppConfig['paymentGateway'], GatewayAdapter> = {
  sandbox: {
    create: (context) =>
      new SandboxGateway({
        db: context.db,
        clock: context.clock,
        challengeBaseUrl: `${context.config.publicBaseUrl}${SANDBOX_CHALLENGE_PATH}`,
      }),
    routes: sandboxChallengeRoutes,
  },
};

/** The configured card gateway. */
export function paymentGatewayFor(context: AppContext): PaymentGateway {
  return ADAPTERS[context.config.paymentGateway].create(context);
}

/**
 * The gateway of every route this process serves: a card payment goes to the configured card
 * gateway, an on-account one to the partner's account at the brand (account/gateway.ts).
 */
export function paymentGatewaysFor(context: AppContext, card = paymentGatewayFor(context)): PaymentGateways {
  const account = { db: context.db, clock: context.clock };
  return {
    gatewayFor(route: PaymentRoute): PaymentGateway {
      switch (route.paymentMethod) {
        case 'CARD':
          return card;
        case 'ON_ACCOUNT':
          return new AccountGateway(account, { partnerId: route.partnerId, brandCode: route.brandCode });
      }
    },
  };
}

/** Public routes the configured gateway serves (the sandbox's 3-D Secure pages), if any. */
export function paymentGatewayRoutes(config: AppConfig): GatewayAdapter['routes'] {
  return ADAPTERS[config.paymentGateway].routes;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The configured card gateway (`PAYMENT_GATEWAY`). */
    paymentGateway: PaymentGateway;
    /** The gateway of each payment route (brand and method): what the money flow asks. */
    paymentGateways: PaymentGateways;
  }
}
