import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request: pass it, answer it itself, or pass it and drop the answer. */
export type Fault = 'pass' | 'drop-answer' | { status: number; headers?: Record<string, string>; body?: string };

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly at: number;
}

export interface FaultProxy {
  readonly url: string;
  readonly seen: SeenRequest[];
  /** Decides each request's fate (default: pass). */
  rule(decide: (request: SeenRequest) => Fault): void;
  close(): Promise<void>;
}

/** An HTTP proxy on 127.0.0.1 (port 0) in front of `target` that injects faults into chosen requests. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const seen: SeenRequest[] = [];
  let decide: (request: SeenRequest) => Fault = () => 'pass';
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const request = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: body.toString('utf8'),
        at: Date.now(),
      };
      seen.push(request);
      const fault = decide(request);
      if (typeof fault === 'object') {
        outgoing.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        outgoing.end(fault.body ?? '');
        return;
      }
      const sent = forward(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.path,
          headers: { ...incoming.headers, host: upstream.host },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            // The server has answered in full; the client never hears it.
            if (fault === 'drop-answer') return void incoming.socket.destroy();
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(Buffer.concat(parts));
          });
        },
      );
      sent.on('error', () => incoming.socket.destroy());
      sent.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    rule(next) {
      decide = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
