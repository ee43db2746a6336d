import type { EventFacts, ObjectFacts } from './model.js';

/**
 * The facts of a verified Stripe event (pure): the few fields applying it reads, checked for their
 * types. A field of the wrong type is treated as absent; the payload itself is not kept.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const amount = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) ? value : 0);
/** An expandable reference: Stripe sends the id, or the object when expanded. */
const idOf = (value: unknown): string | undefined => text(value) ?? (isObject(value) ? text(value.id) : undefined);
const currencyOf = (value: unknown): string => (text(value) ?? '').toUpperCase();

export function objectFactsOf(type: string, object: unknown): ObjectFacts {
  if (!isObject(object)) return { kind: 'other' };
  const id = text(object.id);
  if (id === undefined) return { kind: 'other' };
  const paymentId = idOf(object.payment_intent);
  const withPayment = paymentId === undefined ? {} : { paymentId };
  if (type.startsWith('payment_intent.'))
    return {
      kind: 'payment_intent',
      paymentId: id,
      status: text(object.status) ?? '',
      amountMinor: amount(object.amount),
      currency: currencyOf(object.currency),
    };
  if (type.startsWith('charge.dispute.'))
    return {
      kind: 'dispute',
      disputeId: id,
      ...withPayment,
      amountMinor: amount(object.amount),
      currency: currencyOf(object.currency),
      reason: text(object.reason) ?? 'unknown',
      status: text(object.status) ?? 'unknown',
    };
  if (type.startsWith('refund.') || type === 'charge.refund.updated') {
    const failureReason = text(object.failure_reason);
    return {
      kind: 'refund',
      refundId: id,
      ...withPayment,
      amountMinor: amount(object.amount),
      currency: currencyOf(object.currency),
      status: text(object.status) ?? '',
      ...(failureReason ? { failureReason } : {}),
    };
  }
  if (type.startsWith('charge.')) return { kind: 'charge', chargeId: id, ...withPayment };
  return { kind: 'other' };
}

/** The facts of a verified event (`stripe.webhooks.constructEvent`'s answer). */
export function eventFactsOf(event: {
  readonly id: string;
  readonly type: string;
  readonly livemode: boolean;
  readonly created: number;
  readonly data: { readonly object: unknown };
}): EventFacts {
  return {
    eventId: event.id,
    type: event.type,
    livemode: event.livemode,
    createdAt: new Date(Number.isSafeInteger(event.created) ? event.created * 1000 : 0).toISOString(),
    object: objectFactsOf(event.type, event.data.object),
  };
}
