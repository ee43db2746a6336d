import {
  benchEndpoint,
  bulkRedeliverRequest,
  eventFeedRequest,
  eventReadRequest,
  eventRedeliverRequest,
  published,
  testEvents,
  webhookPath,
  webhookUpdateRequest,
} from './event-fixture.js';
import { bearer, purchases, type Scenario } from './scenario.js';
import { registeredBenchReceiver } from './webhook-receiver.js';

/** The rows of partner events: the purchase delivering its events, and every webhook and event endpoint. */
export const EVENT_SCENARIOS: Scenario[] = [
  {
    name: 'purchaseWithWebhooks',
    description:
      'The purchaseWithDocuments row with a webhook endpoint registered for every event type (a receiver in the bench process answering 204): the worker also publishes policy.issued, payment.captured and documents.sent and delivers each signed; CPU per purchase counted until the outbox is empty.',
    outboxWorker: true,
    prepare: async (api, _fixtures, run) => {
      await registeredBenchReceiver(api, await bearer(api));
      return purchases(api, run, 'purchaseWithWebhooks');
    },
  },
  {
    name: 'webhookList',
    description: 'GET /partners/v1/{brand}/webhooks: the partner’s endpoints (a handful).',
    prepare: async (api) => {
      const endpoint = await benchEndpoint(api);
      return { method: 'GET', path: '/partners/v1/brandau/webhooks', headers: endpoint.headers };
    },
  },
  {
    name: 'webhookRead',
    description: '…/webhooks/{webhookId}: one endpoint.',
    prepare: async (api) => {
      const endpoint = await benchEndpoint(api);
      return { method: 'GET', path: webhookPath(endpoint), headers: endpoint.headers };
    },
  },
  {
    name: 'webhookUpdate',
    description: 'PATCH …/webhooks/{webhookId}: the same description written again (URL unchanged: no DNS lookup).',
    prepare: async (api) => webhookUpdateRequest(await benchEndpoint(api)),
  },
  {
    name: 'webhookRotateSecret',
    description:
      '…/webhooks/{webhookId}/rotate-secret: a new secret sealed (AES-256-GCM) per request, the previous kept for the overlap.',
    prepare: async (api) => {
      const endpoint = await benchEndpoint(api);
      return { method: 'POST', path: webhookPath(endpoint, '/rotate-secret'), headers: endpoint.headers };
    },
  },
  {
    name: 'webhookTest',
    description:
      '…/webhooks/{webhookId}/test: 202, a webhook.test event recorded with its outbox message per request (no worker pass during the run).',
    prepare: async (api) => {
      const endpoint = await benchEndpoint(api);
      return { method: 'POST', path: webhookPath(endpoint, '/test'), headers: endpoint.headers };
    },
  },
  {
    name: 'eventFeed',
    description:
      'GET /partners/v1/{brand}/events?limit=100: a page of 100 published events (test events, delivered before the clock).',
    outboxWorker: true,
    prepare: async (api) => {
      const endpoint = await benchEndpoint(api);
      const ids = await testEvents(api, endpoint, 100);
      await published(api, endpoint, ids.at(-1)!);
      return eventFeedRequest(endpoint, 100);
    },
  },
  {
    name: 'eventRead',
    description: '…/events/{eventId}: one delivered event with its delivery and attempt.',
    outboxWorker: true,
    prepare: async (api) => {
      const endpoint = await benchEndpoint(api);
      const [eventId] = await testEvents(api, endpoint, 1);
      await published(api, endpoint, eventId!);
      return eventReadRequest(endpoint, eventId!);
    },
  },
  {
    name: 'eventRedeliver',
    description:
      '…/events/{eventId}/redeliver: 202, the delivery queued again from attempt 1 (no worker pass during the run).',
    prepare: async (api) => {
      const endpoint = await benchEndpoint(api);
      const [eventId] = await testEvents(api, endpoint, 1);
      return eventRedeliverRequest(endpoint, eventId!);
    },
  },
  {
    name: 'eventBulkRedeliver',
    description:
      'POST …/events/redeliver: 202, the failed deliveries of a two-hour range to one endpoint (none: the search alone).',
    prepare: async (api) => bulkRedeliverRequest(await benchEndpoint(api)),
  },
];
