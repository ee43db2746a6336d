import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { challengePage } from './challenge-page.js';
import { Ledger } from './ledger.js';
import { errorAnswer, type Answer } from './objects.js';

/**
 * A local stand-in of Stripe's HTTP API (the calls the Stripe adapter makes), on 127.0.0.1, for
 * tests and staging demos: form-encoded bodies, Stripe's error envelope, `Idempotency-Key`
 * semantics (same key and parameters: the first answer again, with `Idempotent-Replayed: true`;
 * other parameters: 400 `idempotency_error`), and the hosted 3-D Secure page with buttons that
 * send the browser to the intent's `return_url`, as Stripe's test page does.
 */

/** One call the stand-in received (what tests count: charges, replays). */
export interface StandinCall {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey?: string;
  readonly status: number;
  readonly replayed: boolean;
}

/** Switches tests throw: the next calls fail with a 5xx, or answer only after a delay (having acted). */
export interface TransportFaults {
  failNext: number;
  failStatus: number;
  delayNext: number;
  delayMs: number;
}

export interface StripeStandin {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly ledger: Ledger;
  readonly faults: TransportFaults;
  readonly calls: StandinCall[];
  /** The environment that points the service at this stand-in. */
  readonly env: Record<string, string>;
  /** Captured minus refunded over every intent, in minor units. */
  netCaptured(): number;
  close(): Promise<void>;
}

/** The test key the stand-in takes (any `sk_test_…` key is accepted). */
export const STANDIN_SECRET_KEY = 'sk_test_standin_0000000000000000';

interface Stored {
  readonly fingerprint: string;
  readonly answer: Answer;
}

/** Validation failures are not saved under the key (Stripe: no endpoint started executing). */
const isSaved = (answer: Answer): boolean => {
  if (answer.status >= 500 || answer.status === 429) return false;
  const code = (answer.body.error as { code?: string } | undefined)?.code ?? '';
  return !code.startsWith('parameter_');
};

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, answer: Answer, headers: Record<string, string> = {}): void {
  if (response.destroyed) return;
  response.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_standin`, ...headers });
  response.end(JSON.stringify(answer.body));
}

const TEST_KEY = /^(sk|rk)_test_[A-Za-z0-9_]+$/;

/** A test key as Stripe takes it: `Bearer <key>`, or HTTP Basic with the key as the user (curl -u). */
function authenticated(request: IncomingMessage): boolean {
  const [scheme, value = ''] = (request.headers.authorization ?? '').split(' ');
  if (scheme === 'Bearer') return TEST_KEY.test(value);
  if (scheme === 'Basic') return TEST_KEY.test(Buffer.from(value, 'base64').toString('utf8').split(':')[0] ?? '');
  return false;
}

export async function startStripeStandin(): Promise<StripeStandin> {
  let base = '';
  const ledger = new Ledger(() => base);
  const faults: TransportFaults = { failNext: 0, failStatus: 500, delayNext: 0, delayMs: 0 };
  const calls: StandinCall[] = [];
  const keys = new Map<string, Stored>();
  const timers = new Set<NodeJS.Timeout>();

  const api = (method: string, path: string, form: URLSearchParams): Answer => {
    const segments = path.split('/').filter(Boolean);
    const [version, resource, id, action] = segments;
    if (version === 'v1' && resource === 'payment_intents') {
      if (method === 'POST' && segments.length === 2) return ledger.create(form);
      if (method === 'GET' && id && segments.length === 3) return ledger.retrieve(id);
      if (method === 'POST' && id && action === 'confirm') return ledger.confirm(id, form);
      if (method === 'POST' && id && action === 'capture') return ledger.capture(id, form);
      if (method === 'POST' && id && action === 'cancel') return ledger.cancel(id, form);
    }
    if (version === 'v1' && resource === 'refunds' && method === 'POST' && segments.length === 2)
      return ledger.refund(form);
    return errorAnswer(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  };

  const handleApi = async (request: IncomingMessage, response: ServerResponse, path: string): Promise<void> => {
    const method = request.method ?? 'GET';
    const raw = await bodyOf(request);
    const key = request.headers['idempotency-key'] as string | undefined;
    const record = (status: number, replayed: boolean) =>
      calls.push({ method, path, ...(key ? { idempotencyKey: key } : {}), status, replayed });
    if (!authenticated(request)) {
      record(401, false);
      return send(response, errorAnswer(401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' }));
    }
    if (faults.failNext > 0) {
      faults.failNext -= 1;
      record(faults.failStatus, false);
      return send(
        response,
        errorAnswer(faults.failStatus, { type: 'api_error', message: 'An unknown error occurred.' }),
      );
    }
    const form = new URLSearchParams(raw);
    const fingerprint = `${method} ${path} ${[...form]
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join('&')}`;
    const stored = method === 'POST' && key ? keys.get(key) : undefined;
    if (stored && stored.fingerprint !== fingerprint) {
      record(400, false);
      return send(
        response,
        errorAnswer(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
        }),
      );
    }
    const answer = stored?.answer ?? api(method, path, form);
    if (!stored && method === 'POST' && key && isSaved(answer)) keys.set(key, { fingerprint, answer });
    record(answer.status, stored !== undefined);
    const headers: Record<string, string> = stored ? { 'idempotent-replayed': 'true' } : {};
    if (faults.delayNext > 0) {
      // Acted on and saved already: the caller times out and its retry with the key replays.
      faults.delayNext -= 1;
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(response, answer, headers);
      }, faults.delayMs);
      timers.add(timer);
      return;
    }
    send(response, answer, headers);
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const done = url.pathname.startsWith('/3d_secure_2/hosted')
      ? challengePage(ledger, request, response, url)
      : handleApi(request, response, url.pathname);
    done.catch(() => {
      if (!response.headersSent)
        send(response, errorAnswer(500, { type: 'api_error', message: 'The stand-in failed.' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    ledger,
    faults,
    calls,
    env: {
      PAYMENT_GATEWAY: 'stripe',
      STRIPE_SECRET_KEY: STANDIN_SECRET_KEY,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: 'http',
    },
    netCaptured: () =>
      [...ledger.intents.values()].reduce((sum, intent) => sum + intent.amountReceived - intent.amountRefunded, 0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
