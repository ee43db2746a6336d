import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { crashPoint } from '../../flow/flow.js';
import { stripeWebhookDepsFor } from './deps.js';
import { StripeWebhookAnswer } from './schemas.js';
import { applyReceived, receiveEvent, verifiedFacts } from './service.js';

/** Where Stripe posts its events (served at the root, outside BASE_PATH, like the gateway's other pages). */
export const STRIPE_WEBHOOK_PATH = '/webhooks/stripe';

/**
 * The body exactly as received, kept from the app-wide guards' walk over bodies (a private field
 * is no property): Stripe sends pretty-printed JSON, whose line breaks the partner routes' control
 * character refusal would refuse. Its signature is the check here; only chosen facts are kept.
 */
class RawBody {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  get text(): string {
    return this.#text;
  }
}

export interface StripeWebhookRoutesOptions {
  readonly context: AppContext;
}

/**
 * `POST /webhooks/stripe`: public (Stripe's signature is the authentication), for Stripe and not
 * partners, so not in the partners' OpenAPI document. The body is kept as the exact text received
 * (the signature covers its bytes). Answered 200 as soon as the event is recorded; it is applied
 * after the answer (a crash there leaves it to the sweep), and the app's close awaits that.
 */
export function stripeWebhookRoutes(app: FastifyInstance, { context }: StripeWebhookRoutesOptions): Promise<void> {
  // This plugin's own JSON parser: the raw text, verified before anything is parsed.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, new RawBody(String(body))),
  );
  const applying = new Set<Promise<unknown>>();
  app.addHook('preClose', async () => {
    await Promise.allSettled([...applying]);
  });

  app.post(
    STRIPE_WEBHOOK_PATH,
    {
      schema: {
        hide: true,
        summary: "Stripe's webhook events (for Stripe, not partners)",
        response: { 200: StripeWebhookAnswer },
      },
    },
    async (request, reply) => {
      const raw = request.body instanceof RawBody ? request.body.text : '';
      const header = request.headers['stripe-signature'];
      const facts = verifiedFacts(
        context.config.stripeWebhooks,
        context.clock,
        raw,
        typeof header === 'string' ? header : undefined,
      );
      const deps = stripeWebhookDepsFor(context, app.paymentGateways, request.log);
      const fresh = await receiveEvent(deps, facts);
      if (fresh) {
        // A test may fail the request here: recorded, not applied (the sweep's to apply).
        crashPoint(deps, 'stripe-event-recorded');
        // After the answer: Stripe waits for nobody's gateway calls; failures are the sweep's.
        const work = applyReceived(deps, facts.eventId)
          .catch((error: unknown) => request.log.error({ err: error }, 'stripe: applying a received event failed'))
          .finally(() => applying.delete(work));
        applying.add(work);
      }
      return reply.code(200).send({ received: true, duplicate: !fresh });
    },
  );
  return Promise.resolve();
}
