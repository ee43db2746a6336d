import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll } from 'vitest';

/** One request the receiver got: its headers and exact body. */
export interface ReceivedWebhook {
  /** The request's path (a test gives each endpoint its own). */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How the receiver answers the n-th request (0-based): a status, a body, a delay before answering. */
export type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` + path. */
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** Replaces how the next requests are answered. */
  answer(next: (n: number, request: ReceivedWebhook) => Answer): void;
  close(): Promise<void>;
}

/** A receiver started before the describe's tests and closed after them; the getter answers it. */
export function useWebhookReceiver(path = '/hooks'): () => WebhookReceiver {
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    receiver = await startWebhookReceiver(path);
  });
  afterAll(async () => {
    await receiver?.close();
  });
  return () => receiver!;
}

/** A real webhook receiver on 127.0.0.1, port 0 (a partner's endpoint in a test). Default answer: 204. */
export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let answerOf: (n: number, request: ReceivedWebhook) => Answer = () => ({ status: 204 });
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(got);
      const answer = answerOf(received.length - 1, got);
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(answer.status, answer.headers ?? {});
        response.end(answer.body ?? '');
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, answer.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer(next) {
      answerOf = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Verifies a delivery as a partner would (Standard Webhooks, ±5 minutes); throws when it does not verify. */
export function verifyWebhook(secret: string, delivery: ReceivedWebhook): unknown {
  const headers: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
    headers[name] = String(delivery.headers[name] ?? '');
  return new Webhook(secret).verify(delivery.body, headers);
}
