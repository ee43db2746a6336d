import { Type, type Static, type TSchema } from 'typebox';
import { BrandCodeParam } from '../http/schemas.js';
import { ATTEMPT_OUTCOMES, DELIVERY_STATES, EVENT_TYPES } from './model.js';
import { FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX } from './service.js';

/** TypeBox shapes of the event log's routes; descriptions become the OpenAPI text partners read. */

const EventIdText = (description: string) =>
  Type.String({ pattern: '^evt_[A-Za-z0-9_-]{22}$', description, examples: ['evt_Qm9uZGF5LCAxIFNlcCAyMD'] });

export const EventTypeSchema = Type.Enum([...EVENT_TYPES], {
  type: 'string',
  title: 'EventType',
  description: 'What happened (docs/api-contract.md, "Events").',
});

/** The envelope of every event: a delivery's body, an item of the feed. */
export const eventEnvelope = (title: string, data: TSchema, description: string, type: TSchema = EventTypeSchema) =>
  Type.Object(
    {
      id: EventIdText('Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.'),
      type,
      timestamp: Type.String({ format: 'date-time', description: 'When the change it reports committed (UTC).' }),
      data,
    },
    { title, description },
  );

export const EventSchema = eventEnvelope(
  'Event',
  Type.Object({}, { additionalProperties: true, description: 'Depends on `type`: see the `webhooks` section.' }),
  'One event: the exact body a webhook delivery signs and sends.',
);
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

export const EventDetail = Type.Object(
  {
    ...EventSchema.properties,
    deliveries: Type.Array(EventDeliveriesSchema, { description: 'Per endpoint it was queued for.' }),
  },
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
