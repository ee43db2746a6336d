import type { RequestOptions } from '../transport.js';
import type { Body, Query, Schemas } from '../types.js';
import { sign, verify } from '../webhooks.js';
import type { Api } from './api.js';

type EventOf = Schemas['Event'];

export function webhooksOf(api: Api) {
  return {
    create: (body: Body<'createWebhook'>, o?: RequestOptions) => api.json('createWebhook', {}, { body }, o),
    list: (o?: RequestOptions) => api.json('listWebhooks', {}, {}, o),
    get: (webhookId: string, o?: RequestOptions) => api.json('getWebhook', { webhookId }, {}, o),
    update: (webhookId: string, body: Body<'updateWebhook'>, o?: RequestOptions) =>
      api.json('updateWebhook', { webhookId }, { body }, o),
    delete: (webhookId: string, o?: RequestOptions) => api.json('deleteWebhook', { webhookId }, {}, o),
    rotateSecret: (webhookId: string, body: Body<'rotateWebhookSecret'> = {}, o?: RequestOptions) =>
      api.json('rotateWebhookSecret', { webhookId }, { body }, o),
    test: (webhookId: string, o?: RequestOptions) => api.json('testWebhook', { webhookId }, {}, o),
    verify,
    sign,
  };
}

export type Webhooks = ReturnType<typeof webhooksOf>;

export function eventsOf(api: Api) {
  const list = (query: Query<'listEvents'> = {}, o?: RequestOptions) => api.json('listEvents', {}, { query }, o);
  return {
    list,
    get: (eventId: string, o?: RequestOptions) => api.json('getEvent', { eventId }, {}, o),
    /** Queues one event's deliveries again (to one endpoint with `webhookId`); answers how many. */
    redeliver: (eventId: string, body: Body<'redeliverEvent'> = {}, o?: RequestOptions) =>
      api.json('redeliverEvent', { eventId }, { body }, o),
    /** Queues the deliveries of every event in [`from`, `to`) again (`failedOnly`, `webhookId`); answers how many. */
    redeliverRange: (body: Body<'redeliverEvents'>, o?: RequestOptions) => api.json('redeliverEvents', {}, { body }, o),
    /**
     * Every event after `after` (from the first when absent), page by page, until the feed holds no
     * more; keep the last id you processed and pass it as `after` to resume.
     */
    iterate: (query: Query<'listEvents'> = {}, o?: RequestOptions): AsyncGenerator<EventOf> =>
      iterateFeed((after) => list({ ...query, ...(after === undefined ? {} : { after }) }, o), query.after),
  };
}

export type Events = ReturnType<typeof eventsOf>;

async function* iterateFeed(
  page: (after: string | undefined) => Promise<Schemas['EventFeed']>,
  start: string | undefined,
): AsyncGenerator<EventOf> {
  let after = start;
  for (;;) {
    const { events, hasMore } = await page(after);
    for (const event of events) {
      yield event;
      after = event.id;
    }
    if (!hasMore || events.length === 0) return;
  }
}
