import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { html } from '../../kernel/html/markup.js';
import { SERVICE_LOOK } from '../../kernel/html/look.js';
import { renderPage } from '../../kernel/html/page.js';

/** Path of the page Stripe sends the cardholder back to when the partner gave no page of its own. */
export const STRIPE_RETURN_PATH = '/stripe/3ds/return';

/**
 * The page a cardholder lands on after Stripe's 3-D Secure challenge when the purchase named no
 * `threeDSRequestInfo.origin`: it says the answer was received and that the merchant's page goes on.
 * It reads nothing of Stripe's query (the continuation asks Stripe itself) and shows none of it.
 */
export function stripeReturnRoutes(app: FastifyInstance, _options: { context: AppContext }): Promise<void> {
  const page = renderPage({
    lang: 'en',
    title: 'Authentication finished',
    look: SERVICE_LOOK,
    main: html`<h1>Authentication finished</h1>
      <p>
        Your bank has your answer. Return to the merchant's page to finish your purchase; you may close this window.
      </p>`,
  });
  app.get(
    STRIPE_RETURN_PATH,
    { schema: { hide: true, operationId: 'stripeThreeDsReturn', summary: 'Page after a Stripe 3-D Secure challenge' } },
    async (_request, reply) => reply.headers(page.headers).type('text/html; charset=utf-8').send(page.body),
  );
  return Promise.resolve();
}
