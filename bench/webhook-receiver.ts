// A partner's webhook receiver as the bench runs it, in the bench process: counts deliveries, notes
// each one's lag (arrival less its event's `timestamp`, the commit of the change it reports) and
// answers 204. Unreferenced: it never keeps the bench alive on its own.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchApi } from './requests.js';

export interface BenchReceiver {
  readonly url: string;
  /** Deliveries received so far. */
  received: number;
  /** Each delivery's arrival (epoch ms) and lag in ms, while `recording` (the sustained row). */
  readonly lags: { at: number; lagMs: number }[];
  recording: boolean;
  close(): void;
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => receiver.recording && chunks.push(chunk));
    request.on('end', () => {
      receiver.received++;
      if (receiver.recording) {
        const at = Date.now();
        const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
        receiver.lags.push({ at, lagMs: at - Date.parse(timestamp) });
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const receiver: BenchReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: 0,
    lags: [],
    recording: false,
    close: () => server.close(),
  };
  return receiver;
}

let shared: Promise<BenchReceiver> | undefined;
/** One receiver for the whole run (the purchaseWithWebhooks row registers it). */
export function sharedBenchReceiver(): Promise<BenchReceiver> {
  return (shared ??= startBenchReceiver());
}

let registered: Promise<string> | undefined;
/** The shared receiver registered once for every event type (a second registration would double every delivery). */
export function registeredBenchReceiver(api: BenchApi, headers: Record<string, string>): Promise<string> {
  return (registered ??= registerBenchReceiver(api, headers));
}

/** Registers the shared receiver as a webhook endpoint of the bench partner (every event type unless `eventTypes`); answers its id. */
export async function registerBenchReceiver(
  api: BenchApi,
  headers: Record<string, string>,
  eventTypes?: string[],
): Promise<string> {
  const { url } = await sharedBenchReceiver();
  const created = await api.call({
    method: 'POST',
    path: '/partners/v1/brandau/webhooks',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url, ...(eventTypes ? { eventTypes } : {}) }),
  });
  if (created.status !== 201) throw new Error(`webhook endpoint: ${created.status} ${created.body}`);
  return (JSON.parse(created.body) as { webhookId: string }).webhookId;
}
