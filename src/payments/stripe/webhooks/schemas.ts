import { Type, type Static } from 'typebox';

/** The answer Stripe gets once an event is recorded (Stripe reads only the status). */
export const StripeWebhookAnswer = Type.Object({
  received: Type.Literal(true),
  /** True when this event id was recorded before: a redelivery, acknowledged and ignored. */
  duplicate: Type.Boolean(),
});
export type StripeWebhookAnswer = Static<typeof StripeWebhookAnswer>;
