import { Type, type Static, type TSchema } from 'typebox';
import { schemaRef } from '../http/openapi/document.js';
import { BrandCodeParam } from '../http/schemas.js';
import { ATTEMPT_OUTCOMES, DELIVERY_STATES, EVENT_TYPES, type EventType, type PartnerEvent } from './model.js';
import {
  AmendmentReferralEventData,
  DocumentsSentData,
  PaymentEventData,
  PolicyEventData,
  PurchaseDeclinedData,
  ReferralEventData,
  WebhookTestData,
} from './schemas-data.js';
import { FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX } from './service.js';

/** TypeBox shapes of the event log's routes; descriptions become the OpenAPI text partners read. */

const EventIdText = (description: string) =>
  Type.String({ pattern: '^evt_[A-Za-z0-9_-]{22}$', description, examples: ['evt_Qm9uZGF5LCAxIFNlcCAyMD'] });

export const EventTypeSchema = Type.Enum([...EVENT_TYPES], {
  type: 'string',
  title: 'EventType',
  description: 'What happened (docs/api-contract.md, "Events").',
});

/** The envelope of every event (a delivery's body, an item of the feed), of a `type` and its `data`. */
const envelopeOf = <T extends TSchema, D extends TSchema>(type: T, data: D) => ({
  id: EventIdText('Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.'),
  type,
  timestamp: Type.String({ format: 'date-time', description: 'When the change it reports committed (UTC).' }),
  data,
});

/** Each event type: the name of its envelope, what happened, and its `data` (docs/api-contract.md, "Types"). */
export const EVENT_KINDS: Record<
  EventType,
  { readonly title: string; readonly summary: string; readonly data: TSchema }
> = {
  'policy.issued': { title: 'PolicyIssuedEvent', summary: 'A purchase issued a policy.', data: PolicyEventData },
  'policy.amended': { title: 'PolicyAmendedEvent', summary: 'An amendment was applied.', data: PolicyEventData },
  'policy.cancelled': { title: 'PolicyCancelledEvent', summary: 'The policy was cancelled.', data: PolicyEventData },
  'payment.captured': {
    title: 'PaymentCapturedEvent',
    summary: "A purchase's or an amendment's charge was captured.",
    data: PaymentEventData,
  },
  'payment.refunded': {
    title: 'PaymentRefundedEvent',
    summary: "A change's refund went back to the policy's payments.",
    data: PaymentEventData,
  },
  'purchase.declined': {
    title: 'PurchaseDeclinedEvent',
    summary: 'A purchase was declined by the card issuer.',
    data: PurchaseDeclinedData,
  },
  'documents.sent': {
    title: 'DocumentsSentEvent',
    summary: "A transaction's documents were e-mailed.",
    data: DocumentsSentData,
  },
  'quote.referred': {
    title: 'QuoteReferredEvent',
    summary: 'A quote was referred to an underwriter: it cannot be bought until approved.',
    data: ReferralEventData,
  },
  'quote.referral_approved': {
    title: 'QuoteReferralApprovedEvent',
    summary: 'An underwriter approved a referred quote (with any loading or extra excess): it can be bought.',
    data: ReferralEventData,
  },
  'quote.referral_declined': {
    title: 'QuoteReferralDeclinedEvent',
    summary: 'An underwriter declined a referred quote: it cannot be bought.',
    data: ReferralEventData,
  },
  'quote.information_requested': {
    title: 'QuoteInformationRequestedEvent',
    summary: "An underwriter asks for information on a referred quote (read the quote's `referral`).",
    data: ReferralEventData,
  },
  'policy.amendment_referred': {
    title: 'PolicyAmendmentReferredEvent',
    summary: 'An amendment preview was referred to an underwriter: it cannot be confirmed until approved.',
    data: AmendmentReferralEventData,
  },
  'policy.amendment_referral_approved': {
    title: 'PolicyAmendmentReferralApprovedEvent',
    summary: 'An underwriter approved a referred amendment: it can be confirmed (until its preview expires).',
    data: AmendmentReferralEventData,
  },
  'policy.amendment_referral_declined': {
    title: 'PolicyAmendmentReferralDeclinedEvent',
    summary: 'An underwriter declined a referred amendment: it cannot be confirmed.',
    data: AmendmentReferralEventData,
  },
  'webhook.test': { title: 'WebhookTestEvent', summary: 'A test event you asked for.', data: WebhookTestData },
};

/** One event type's envelope: its `type` is that type, its `data` that type's. The webhooks section and the feed share them. */
export const TYPED_EVENTS = {} as Record<EventType, TSchema>;
for (const type of EVENT_TYPES) {
  const { title, data } = EVENT_KINDS[type];
  // A one-value enum, not `const`: @fastify/swagger writes a route's `const` so, and both sections share these.
  TYPED_EVENTS[type] = Type.Object(envelopeOf(Type.Enum([type], { type: 'string' }), data), {
    title,
    description: `The \`${type}\` event as delivered.`,
  });
}

/** Any event; the document narrows `data` by `type`. */
export const EventSchema = Type.Unsafe<Pick<PartnerEvent, 'id' | 'type' | 'timestamp' | 'data'>>({
  title: 'Event',
  description: 'One event: the exact body a webhook delivery signs and sends. Its `type` says which `data` it carries.',
  type: 'object',
  oneOf: EVENT_TYPES.map((type) => TYPED_EVENTS[type]),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(EVENT_TYPES.map((type) => [type, schemaRef(EVENT_KINDS[type].title)])),
  },
});
export type EventSchema = Static<typeof EventSchema>;

export const EventParams = Type.Object({
  brandCode: BrandCodeParam,
  eventId: EventIdText('An event id (`evt_…`).'),
});

export const EventFeedQuery = Type.Object({
  after: Type.Optional(
    EventIdText(
      'Answer the events published after this one (the last id of your previous page); absent: from the first.',
    ),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: FEED_LIMIT_MAX,
      default: FEED_LIMIT_DEFAULT,
      description: `Events per page (default ${String(FEED_LIMIT_DEFAULT)}, at most ${String(FEED_LIMIT_MAX)}).`,
    }),
  ),
});

export const EventFeed = Type.Object(
  {
    events: Type.Array(EventSchema, { description: 'Published events in feed order (publication = commit order).' }),
    hasMore: Type.Boolean({ description: 'True: ask again with `after` = the last id here.' }),
  },
  { title: 'EventFeed', description: 'A page of the pull feed.' },
);
export type EventFeed = Static<typeof EventFeed>;

export const DeliveryAttemptSchema = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1, description: '1, 2, 3 … per endpoint, across redeliveries.' }),
    attemptedAt: Type.String({ format: 'date-time', description: 'When it was sent (UTC).' }),
    outcome: Type.Enum([...ATTEMPT_OUTCOMES], { type: 'string', description: '2xx answered: SUCCEEDED.' }),
    statusCode: Type.Optional(Type.Integer({ description: "The receiver's HTTP status; absent when none came." })),
    latencyMs: Type.Integer({ minimum: 0, description: 'Time to the answer (or the failure), milliseconds.' }),
    error: Type.Optional(Type.String({ description: '`TIMEOUT`, `ADDRESS_REFUSED`, `CONNECTION`, `HTTP_500` …' })),
    responseExcerpt: Type.Optional(Type.String({ description: "The first bytes of your receiver's answer." })),
  },
  { title: 'DeliveryAttempt', description: 'One delivery attempt to a webhook endpoint.' },
);

export const EventDeliveriesSchema = Type.Object(
  {
    webhookId: Type.String({ description: 'The endpoint.' }),
    state: Type.Optional(
      Type.Enum([...DELIVERY_STATES], {
        type: 'string',
        description: 'PENDING: attempts to come; SENT: delivered; FAILED: retries exhausted (redeliver it).',
      }),
    ),
    attempts: Type.Array(DeliveryAttemptSchema, { description: 'Oldest first.' }),
  },
  { title: 'EventDeliveries', description: "The event's deliveries to one webhook endpoint." },
);

export const EventDetail = Type.Intersect(
  [
    EventSchema,
    Type.Object({ deliveries: Type.Array(EventDeliveriesSchema, { description: 'Per endpoint it was queued for.' }) }),
  ],
  { title: 'EventDetail', description: 'An event and every attempt to deliver it.' },
);
export type EventDetail = Static<typeof EventDetail>;

export const RedeliverBody = Type.Object(
  { webhookId: Type.Optional(Type.String({ maxLength: 64, description: 'Only to this endpoint.' })) },
  { title: 'RedeliverRequest', additionalProperties: false },
);
export type RedeliverBody = Static<typeof RedeliverBody>;

export const BulkRedeliverBody = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'Events that happened at or after this instant …' }),
    to: Type.String({ format: 'date-time', description: '… and before this one.' }),
    failedOnly: Type.Optional(Type.Boolean({ description: 'Only deliveries whose retries are exhausted (FAILED).' })),
    webhookId: Type.Optional(Type.String({ maxLength: 64, description: 'Only to this endpoint.' })),
  },
  {
    title: 'BulkRedeliverRequest',
    additionalProperties: false,
    examples: [{ from: '2026-11-25T00:00:00Z', to: '2026-11-26T00:00:00Z', failedOnly: true }],
  },
);
export type BulkRedeliverBody = Static<typeof BulkRedeliverBody>;

export const RedeliveryAnswer = Type.Object(
  { count: Type.Integer({ minimum: 0, description: 'Deliveries queued again (each due now, from attempt 1).' }) },
  { title: 'RedeliveryAnswer', examples: [{ count: 3 }] },
);
export type RedeliveryAnswer = Static<typeof RedeliveryAnswer>;
