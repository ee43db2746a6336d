import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { emptyBodyAsObject } from '../http/guards/empty-body.js';
import { BrandParams } from '../http/schemas.js';
import { errorResponses } from '../http/error-responses.js';
import { eventBody } from './repository.js';
import type { EventWebhooks, PartnerEvent } from './model.js';
import type { EventScope } from './repository-feed.js';
import {
  BulkRedeliverBody,
  EventDetail,
  EventFeed,
  EventFeedQuery,
  EventParams,
  RedeliverBody,
  RedeliveryAnswer,
  type EventSchema,
} from './schemas.js';
import {
  FEED_LIMIT_DEFAULT,
  getEvent,
  listEvents,
  redeliverEvent,
  redeliverRange,
  type EventLogDeps,
} from './service.js';
import { EventNotFound, EventWebhookNotFound, RedeliveriesLimited } from './errors.js';
import { WebhookDisabled } from './webhooks/errors.js';
import type { DomainError } from '../kernel/errors.js';

/** What a redelivery refuses, as documented: its own 404, a disabled endpoint, the spent budget. */
const redeliveryErrors = (notFound: DomainError) =>
  errorResponses(400, 401, 403, notFound, new WebhookDisabled(WEBHOOK_ID), new RedeliveriesLimited(100, 1800), 500);
const WEBHOOK_ID = 'whe_3q2Rk7d0Tq6mYb8FvX1aLw';

/** The event the document's error examples name. */
const EVENT_ID = 'evt_Qm9uZGF5LCAxIFNlcCAyMD';

/** The redeliveries' budget, as both routes describe it. */
const BUDGET =
  'Each delivery queued counts against the partner’s `WEBHOOK_REDELIVERIES_PER_PARTNER_PER_HOUR` (2000) per UTC hour: a request that does not fit in what is left is 429 `RATE_LIMITED` with `Retry-After` and queues nothing.';

const NOT_FOUND =
  '404 `EVENT_NOT_FOUND` when the id is unknown, is another partner’s, or was recorded under another brand than `{brandCode}` (not told apart).';

/** The envelope as deliveries send it: the same bytes' fields, in the same order. */
const envelopeOf = (event: PartnerEvent) => JSON.parse(eventBody(event)) as EventSchema;

/**
 * Events are answered as deliveries send them, their fields in the same order: serialised as
 * built, not re-ordered by the response schema (which documents them; the contract check of the
 * suite holds these bytes to it).
 */
const asBuilt = () => (data: unknown) => JSON.stringify(data);

const scopeOf = (request: FastifyRequest, params: { brandCode: string }): EventScope => ({
  partnerId: principalOf(request).partnerId,
  brandCode: params.brandCode,
});

/** The partner's event log (issue 21); registered inside the protected scope. */
export const eventsRoutes: FastifyPluginAsyncTypebox<{ context: AppContext; webhooks?: EventWebhooks }> = (
  app,
  { context, webhooks },
) => {
  const deps: EventLogDeps = {
    db: context.db,
    clock: context.clock,
    redeliveriesPerHour: context.config.webhooks.budgets.redeliveriesPerHour,
    ...(webhooks ? { webhooks } : {}),
  };

  app.get(
    '/partners/v1/:brandCode/events',
    {
      schema: {
        tags: ['events'],
        operationId: 'listEvents',
        summary: 'The event feed',
        description: `The partner's published events under the brand, in feed order (the order they were published, which is the order they committed): a pull alternative to webhooks. Page with \`after\` = the last id of the previous page until \`hasMore\` is false; poll again later with the last id you hold. A committed event never appears before one you have already read. 404 \`EVENT_NOT_FOUND\` (property \`after\`) when \`after\` is not an event of this feed.`,
        params: BrandParams,
        querystring: EventFeedQuery,
        response: { 200: EventFeed, ...errorResponses(400, 401, 403, new EventNotFound(EVENT_ID, 'after'), 429, 500) },
      },
      serializerCompiler: asBuilt,
    },
    async (request): Promise<EventFeed> => {
      // The query's default fills `limit` in (validation.ts `useDefaults`); the type cannot know.
      const { after, limit = FEED_LIMIT_DEFAULT } = request.query;
      const page = await listEvents(deps, scopeOf(request, request.params), {
        ...(after === undefined ? {} : { after }),
        limit,
      });
      return { events: page.events.map(envelopeOf), hasMore: page.hasMore };
    },
  );

  app.get(
    '/partners/v1/:brandCode/events/:eventId',
    {
      schema: {
        tags: ['events'],
        operationId: 'getEvent',
        summary: 'One event and its deliveries',
        description: `The event as every delivery sends it, and per webhook endpoint its delivery state and every attempt (time, status code, latency, error). ${NOT_FOUND}`,
        params: EventParams,
        response: { 200: EventDetail, ...errorResponses(400, 401, 403, new EventNotFound(EVENT_ID), 429, 500) },
      },
      serializerCompiler: asBuilt,
    },
    async (request): Promise<EventDetail> => {
      const { event, deliveries } = await getEvent(deps, scopeOf(request, request.params), request.params.eventId);
      return {
        ...envelopeOf(event),
        deliveries: deliveries.map((d) => ({ ...d, attempts: [...d.attempts] })),
      };
    },
  );

  app.post(
    '/partners/v1/:brandCode/events/:eventId/redeliver',
    {
      preValidation: [emptyBodyAsObject],
      schema: {
        tags: ['events'],
        operationId: 'redeliverEvent',
        summary: 'Redeliver one event',
        description: `Queues the event's deliveries, each due now from attempt 1, with the same \`webhook-id\`: a delivery that failed for good, or one your receiver lost, comes again. Without \`webhookId\`: every delivery the event has, plus every enabled endpoint subscribed to its type that has none (missed while disabled, registered or subscribed later). With \`webhookId\`: that endpoint, whether or not it had a delivery and whatever its event types (a \`webhook.test\` event only to its own endpoint). Answers 202 with how many were queued. ${BUDGET} ${NOT_FOUND} 404 \`WEBHOOK_NOT_FOUND\` when \`webhookId\` is not a live endpoint of yours under the brand (or another endpoint's test event); 409 \`WEBHOOK_DISABLED\` when it is disabled.`,
        params: EventParams,
        body: RedeliverBody,
        response: {
          202: RedeliveryAnswer,
          ...redeliveryErrors(new EventNotFound(EVENT_ID)),
        },
      },
    },
    async (request, reply): Promise<RedeliveryAnswer> => {
      const count = await redeliverEvent(
        deps,
        scopeOf(request, request.params),
        request.params.eventId,
        request.body.webhookId,
      );
      reply.code(202);
      return { count };
    },
  );

  app.post(
    '/partners/v1/:brandCode/events/redeliver',
    {
      schema: {
        tags: ['events'],
        operationId: 'redeliverEvents',
        summary: 'Redeliver events of a time range',
        description:
          "Queues the deliveries of every published event that happened in [`from`, `to`): with `failedOnly` only those that failed for good; otherwise what one event's redelivery without `webhookId` queues (its deliveries, plus each enabled endpoint subscribed to its type that missed it). `webhookId` restricts either to that endpoint (only the types it subscribes to). Answers 202 with how many deliveries were queued. 400 `INVALID_TIME_RANGE` when `to` is not after `from`; 400 `REDELIVERY_RANGE_TOO_LARGE` when the range holds more than 1000 events or would queue more than 1000 deliveries (send shorter ranges, or name a `webhookId`). " +
          BUDGET +
          ' 404 `WEBHOOK_NOT_FOUND` when `webhookId` is not a live endpoint of yours under the brand; 409 `WEBHOOK_DISABLED` when it is disabled.',
        params: BrandParams,
        body: BulkRedeliverBody,
        response: {
          202: RedeliveryAnswer,
          ...redeliveryErrors(new EventWebhookNotFound(WEBHOOK_ID)),
        },
      },
    },
    async (request, reply): Promise<RedeliveryAnswer> => {
      const count = await redeliverRange(deps, scopeOf(request, request.params), request.body);
      reply.code(202);
      return { count };
    },
  );
  return Promise.resolve();
};
