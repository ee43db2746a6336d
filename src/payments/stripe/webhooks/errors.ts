import { InvalidInput, Unavailable } from '../../../kernel/errors.js';

/** A Stripe webhook whose `Stripe-Signature` is missing, malformed, wrong or too old: nothing is recorded. */
export class StripeSignatureInvalid extends InvalidInput {
  constructor() {
    super('STRIPE_SIGNATURE_INVALID', 'The Stripe-Signature header does not verify this body.', {
      property: 'Stripe-Signature',
    });
  }
}

/** No signing secret is configured (STRIPE_WEBHOOK_SECRET): nothing can be verified, Stripe retries later. */
export class StripeWebhooksNotConfigured extends Unavailable {
  constructor() {
    super('STRIPE_WEBHOOKS_NOT_CONFIGURED', 'Stripe webhooks are not configured on this server.');
  }
}
