/**
 * Answers for requests Node's HTTP parser refuses before Fastify sees them (the server's
 * 'clientError' event): headers too large (431), a request not received in time (408, see
 * server-timeouts.ts) and anything that is not HTTP/1.1 (400). Fastify's default writes its own
 * body without `Connection: close` and cuts the socket at once, so a keep-alive client could not
 * tell the connection was gone and its next request failed. Here every answer is a whole HTTP
 * message in the contract's error body (the token endpoint's in OAuth's), with `X-Request-Id`
 * and `Connection: close`, a log line and a metric.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { loggablePath } from '../../logging/loggable-path.js';
import { envelope, oauthErrorBody, type OAuthPaths } from '../error-handler.js';
import type { HttpMetrics } from '../metrics.js';
import { requestIdFor } from '../request-id.js';

interface ClientErrorAnswer {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** By Node's error code; anything else the parser refuses is a 400. */
const ANSWERS: Record<string, ClientErrorAnswer> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request did not arrive in time; send it again on a new connection.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    message: 'The request headers are larger than the server accepts (16 KiB in all).',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The chunk extensions of the body are too large.',
  },
};
/** The Notification of a refusal below Fastify (Node's error code), as the server writes it. */
export function clientErrorNotification(nodeCode: 'ERR_HTTP_REQUEST_TIMEOUT' | 'HPE_HEADER_OVERFLOW') {
  const known = ANSWERS[nodeCode];
  if (!known) throw new Error(`No client error answer for ${nodeCode}.`);
  return { code: known.code, message: known.message };
}

const NOT_HTTP: ClientErrorAnswer = {
  status: 400,
  code: 'MALFORMED_REQUEST',
  message: 'The request is not valid HTTP/1.1.',
};

/** After answering, the socket is half-closed and then destroyed this much later, so the client reads the answer instead of a reset. */
const LINGER_MS = 1000;

export interface ClientErrorOptions extends OAuthPaths {
  readonly metrics: Pick<HttpMetrics, 'record'>;
}

/**
 * The refused request's path: from its parsed head when it got that far, else from the request
 * line at the start of the bytes the parser refused (headers too large, or not HTTP, in the
 * packet that brought the request line). Undefined when neither shows it.
 */
function pathOf(
  req: IncomingMessage | undefined,
  error: NodeJS.ErrnoException & { rawPacket?: unknown },
): string | undefined {
  if (req?.url !== undefined) return req.url;
  const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.subarray(0, 8192).toString('latin1') : '';
  return /^[A-Z]+ (\S+) HTTP\/1\.[01]\r?\n/.exec(packet)?.[1];
}

type ClientErrorHandler = (this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex) => void;

/** Fastify's `clientErrorHandler`; Fastify calls it with the instance as `this` (for its logger). */
export function clientErrorHandler(options: ClientErrorOptions): ClientErrorHandler {
  // The parser may report again for bytes that arrive after its first error: one answer per socket.
  const answered = new WeakSet<Duplex>();
  return function onClientError(this: FastifyInstance, error, socket) {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
    answered.add(socket);
    const answer = ANSWERS[error.code ?? ''] ?? NOT_HTTP;
    // A request whose headers arrived (a 408 waiting for its body) has its response object here.
    const res = (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
    const req: IncomingMessage | undefined = res?.req;
    const id = req ? requestIdFor(req) : randomUUID();
    const seen = pathOf(req, error);
    const path = seen === undefined ? undefined : loggablePath(seen);
    const sent = socket.writable && res?.headersSent !== true;
    if (sent) {
      const oauth = path === undefined ? undefined : options.oauthPath.test(path);
      socket.end(httpAnswer(answer, id, oauth));
      const timer = setTimeout(() => socket.destroy(), LINGER_MS);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
    } else {
      socket.destroy();
    }
    options.metrics.record(req?.method ?? 'UNKNOWN', 'unmatched', answer.status, 0);
    // Never the query string or header values: they are what the parser could not trust.
    this.log.info(
      {
        reqId: id,
        method: req?.method,
        path,
        remoteAddress: (socket as Partial<Socket>).remoteAddress,
        statusCode: answer.status,
        code: answer.code,
        reason: error.code,
        answered: sent,
      },
      'client error',
    );
  };
}

/**
 * The answer's body: OAuth's on the token endpoint's path, the contract's elsewhere; when the path
 * is unknown (`oauth` undefined), both at once, so either kind of client reads it as its own.
 */
function httpAnswer(answer: ClientErrorAnswer, id: string, oauth: boolean | undefined): string {
  const oauthBody = oauthErrorBody(answer.message);
  const apiBody = envelope([{ code: answer.code, message: answer.message }]);
  const body = JSON.stringify(oauth === undefined ? { ...oauthBody, ...apiBody } : oauth ? oauthBody : apiBody);
  return (
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${id}\r\n` +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n\r\n' +
    body
  );
}
