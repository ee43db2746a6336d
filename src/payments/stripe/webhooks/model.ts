/**
 * Stripe's webhook events as this service keeps them: recorded (RECEIVED) before anything acts on
 * them, then applied once (DONE, with what it did). An application that failed, was cut by a crash
 * or waits for our own step to finish stays RECEIVED and is applied again by the sweep once due.
 */
export const STRIPE_EVENT_STATES = ['RECEIVED', 'DONE'] as const;
export type StripeEventState = (typeof STRIPE_EVENT_STATES)[number];

/** The PaymentIntent events that may finish a payment our own flow is waiting on. */
export const PAYMENT_INTENT_EVENTS = [
  'payment_intent.amount_capturable_updated',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
] as const;

/** Refund events: an updated refund counts when its status is `failed` or `canceled`. */
export const REFUND_EVENTS = ['charge.refunded', 'refund.updated', 'charge.refund.updated', 'refund.failed'] as const;

export const DISPUTE_EVENTS = ['charge.dispute.created', 'charge.dispute.closed'] as const;

/** What an event's object says, as far as applying it needs (nothing else of the payload is kept). */
export type ObjectFacts =
  | {
      readonly kind: 'payment_intent';
      readonly paymentId: string;
      readonly status: string;
      readonly amountMinor: number;
      readonly currency: string;
    }
  | { readonly kind: 'charge'; readonly chargeId: string; readonly paymentId?: string }
  | {
      readonly kind: 'refund';
      readonly refundId: string;
      readonly paymentId?: string;
      readonly amountMinor: number;
      readonly currency: string;
      readonly status: string;
      readonly failureReason?: string;
    }
  | {
      readonly kind: 'dispute';
      readonly disputeId: string;
      readonly paymentId?: string;
      readonly amountMinor: number;
      readonly currency: string;
      readonly reason: string;
      readonly status: string;
    }
  | { readonly kind: 'other' };

/** An event as received: Stripe's id and type, when Stripe created it, and its object's facts. */
export interface EventFacts {
  readonly eventId: string;
  readonly type: string;
  readonly livemode: boolean;
  /** ISO 8601 UTC (Stripe's `created`). */
  readonly createdAt: string;
  readonly object: ObjectFacts;
}

/** A recorded event. */
export interface StripeEvent extends EventFacts {
  readonly state: StripeEventState;
  readonly outcome?: string;
  /** Why the last application failed (an error's name, never a value); cleared once it is done. */
  readonly lastError?: string;
  readonly attempts: number;
  readonly nextAttemptAt: string;
  readonly receivedAt: string;
  readonly updatedAt: string;
}

/**
 * What applying an event did: `done` (applied, or nothing to do; `outcome` says which), or
 * `later` (our own step is working on the record: applied again once it is left alone, at `until`).
 */
export type Application =
  | { readonly result: 'done'; readonly outcome: string }
  | { readonly result: 'later'; readonly outcome: string; readonly until: string };

/** A dispute as recorded against one of our payments. */
export interface Dispute {
  readonly disputeId: string;
  readonly paymentId: string;
  readonly policyNumber?: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly reason: string;
  readonly status: string;
  readonly at: string;
  /** Closed (won, lost or warning closed): the event was `charge.dispute.closed`. */
  readonly closed: boolean;
}
