import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, as it arrived, and whether a given secret verifies it. */
export interface ReceivedDelivery {
  readonly id: string;
  readonly timestamp: string;
  readonly signatures: readonly string[];
  readonly body: string;
  readonly event: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
  readonly headers: IncomingHttpHeaders;
  readonly receivedAt: number;
}

/** How the receiver answers the `n`th request (0-based); default 204. */
export type Answer = (delivery: ReceivedDelivery, n: number, response: ServerResponse) => number | 'hang';

/**
 * A real webhook receiver on 127.0.0.1 (port 0): keeps every request and answers as told. Tests
 * verify deliveries with the `standardwebhooks` package, as a partner's receiver would.
 */
export async function startWebhookReceiver(answer: Answer = () => 204) {
  const received: ReceivedDelivery[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(request.headers[name] ?? '');
      const delivery: ReceivedDelivery = {
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signatures: header('webhook-signature').split(' ').filter(Boolean),
        body,
        event: (body ? JSON.parse(body) : {}) as ReceivedDelivery['event'],
        headers: request.headers,
        receivedAt: Date.now(),
      };
      received.push(delivery);
      const status = answer(delivery, received.length - 1, response);
      if (status === 'hang') hanging.push(response);
      else if (!response.headersSent) response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Throws unless `secret` verifies the delivery (signature over id, timestamp and body; ±5 min). */
    verify(delivery: ReceivedDelivery, secret: string): unknown {
      return new Webhook(secret).verify(delivery.body, {
        'webhook-id': delivery.id,
        'webhook-timestamp': delivery.timestamp,
        'webhook-signature': delivery.signatures.join(' '),
      });
    },
    async close(): Promise<void> {
      hanging.forEach((response) => response.destroy());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
