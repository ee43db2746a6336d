// What the event and webhook rows prepare through the public API: an endpoint of the bench
// partner (the bench receiver), test events recorded for it, and the requests each row repeats.
import { BRAND, bearer } from './scenario.js';
import type { BenchApi, BenchRequest } from './requests.js';
import { registerBenchReceiver } from './webhook-receiver.js';

const json = { 'content-type': 'application/json' };
const partnerPath = `/partners/v1/${BRAND}`;

export interface BenchEndpoint {
  readonly headers: Record<string, string>;
  readonly webhookId: string;
}

/** A webhook endpoint for test events only (purchases in other rows do not fan out to it). */
export async function benchEndpoint(api: BenchApi): Promise<BenchEndpoint> {
  const headers = await bearer(api);
  return { headers, webhookId: await registerBenchReceiver(api, headers, ['webhook.test']) };
}

export const webhookPath = (endpoint: BenchEndpoint, suffix = '') =>
  `${partnerPath}/webhooks/${endpoint.webhookId}${suffix}`;

/** Records `count` test events for the endpoint (202 each); answers their ids. */
export async function testEvents(api: BenchApi, endpoint: BenchEndpoint, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await api.call({ method: 'POST', path: webhookPath(endpoint, '/test'), headers: endpoint.headers });
    if (answer.status !== 202) throw new Error(`test event: ${answer.status} ${answer.body}`);
    ids.push((JSON.parse(answer.body) as { eventId: string }).eventId);
  }
  return ids;
}

/** Waits until the worker published the event (it is in the feed). */
export async function published(api: BenchApi, endpoint: BenchEndpoint, eventId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const read = await api.call({ method: 'GET', path: `${partnerPath}/events/${eventId}`, headers: endpoint.headers });
    const deliveries = (JSON.parse(read.body) as { deliveries?: { state?: string }[] }).deliveries ?? [];
    if (deliveries.some((d) => d.state === 'SENT')) return;
    if (Date.now() > deadline) throw new Error(`event ${eventId} not delivered in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const eventFeedRequest = (endpoint: BenchEndpoint, limit: number): BenchRequest => ({
  method: 'GET',
  path: `${partnerPath}/events?limit=${limit}`,
  headers: endpoint.headers,
});

export const eventReadRequest = (endpoint: BenchEndpoint, eventId: string): BenchRequest => ({
  method: 'GET',
  path: `${partnerPath}/events/${eventId}`,
  headers: endpoint.headers,
});

export const eventRedeliverRequest = (endpoint: BenchEndpoint, eventId: string): BenchRequest => ({
  method: 'POST',
  path: `${partnerPath}/events/${eventId}/redeliver`,
  headers: endpoint.headers,
});

/** Failed deliveries of the last hour to this endpoint again (none failed: the row measures the search). */
export const bulkRedeliverRequest = (endpoint: BenchEndpoint): BenchRequest => ({
  method: 'POST',
  path: `${partnerPath}/events/redeliver`,
  headers: { ...endpoint.headers, ...json },
  body: JSON.stringify({
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 3_600_000).toISOString(),
    failedOnly: true,
    webhookId: endpoint.webhookId,
  }),
});

export const webhookUpdateRequest = (endpoint: BenchEndpoint): BenchRequest => ({
  method: 'PATCH',
  path: webhookPath(endpoint),
  headers: { ...endpoint.headers, ...json },
  body: JSON.stringify({ description: 'bench endpoint' }),
});
