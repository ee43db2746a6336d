import type { IncomingHttpHeaders, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { parseAnswer } from '../raw-http.js';
import { AnswerChecker, type Exchange } from './answer-check.js';

/**
 * Every answer an integration test receives passes through here and is checked against the
 * OpenAPI document of the app that gave it (`app.swagger()`, which test/http/openapi.test.ts keeps
 * equal to the committed docs/openapi.json): `app.inject`, real connections (Fastify's and the
 * front cache's answers alike) and the answers written to the socket for requests Node's parser
 * refused. A mismatch is kept here and fails the test that received it (contract/setup.ts, an
 * `afterEach` of every test file). Not covered: child processes of test/process/ (their answers
 * never pass through this process) and the paths `EXEMPT_PATHS` names (answer-check.ts).
 */

const mismatches: string[] = [];

/** The mismatches found since the last call (the setup file fails the test with them). */
export function takeMismatches(): string[] {
  return mismatches.splice(0);
}

// One checker per document text: the apps of a test file usually share one.
const checkers = new Map<string, AnswerChecker>();
function checkerOf(document: unknown): AnswerChecker {
  const text = JSON.stringify(document);
  let checker = checkers.get(text);
  if (!checker) {
    checker = new AnswerChecker(JSON.parse(text) as Record<string, unknown>);
    checkers.set(text, checker);
  }
  return checker;
}

const tapped = new WeakSet<FastifyInstance>();

/** Checks every answer `app` gives from now on. buildTestApp calls it; so does a test that builds an app itself. */
export function checkAnswers(app: FastifyInstance): void {
  if (tapped.has(app)) return;
  tapped.add(app);
  let checker: AnswerChecker | undefined;
  const record = (exchange: Exchange) => {
    try {
      checker ??= checkerOf(app.swagger());
      const mismatch = checker.check(exchange);
      if (mismatch) mismatches.push(`${mismatch.where}:\n${mismatch.problems.map((p) => `  - ${p}`).join('\n')}`);
    } catch (error) {
      mismatches.push(`checking ${exchange.method} ${exchange.url} failed: ${String(error)}`);
    }
  };
  tapInject(app, record);
  tapServer(app.server, record);
}

type Record_ = (exchange: Exchange) => void;

function fromInject(response: LightMyRequestResponse): Exchange {
  const req = response.raw.req;
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    requestHeaders: req.headers,
    status: response.statusCode,
    headers: lowerCased(response.headers),
    body: response.rawPayload,
  };
}

function tapInject(app: FastifyInstance, record: Record_): void {
  const inject = app.inject.bind(app) as (options?: InjectOptions | string, callback?: unknown) => unknown;
  const tapped = (
    options?: InjectOptions | string,
    callback?: (error: unknown, response?: LightMyRequestResponse) => void,
  ) => {
    // The chained form (`app.inject().get(…)`) is not used by the suite; it passes unchecked.
    if (options === undefined) return inject();
    if (callback)
      return inject(options, (error: unknown, response?: LightMyRequestResponse) => {
        if (response) record(fromInject(response));
        callback(error, response);
      });
    return (inject(options) as Promise<LightMyRequestResponse>).then((response) => {
      record(fromInject(response));
      return response;
    });
  };
  app.inject = tapped as typeof app.inject;
}

/** Answers on real connections: what the response object wrote, whoever wrote it. */
function tapServer(server: Server, record: Record_): void {
  server.prependListener(
    'request',
    (req: { method?: string; url?: string; headers: IncomingHttpHeaders }, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      const head: OutgoingHttpHeaders = {};
      type Writer = (...args: unknown[]) => unknown;
      const writeHead = res.writeHead.bind(res) as Writer;
      const write = res.write.bind(res) as Writer;
      const end = res.end.bind(res) as Writer;
      const keep = (chunk: unknown, encoding?: unknown) => {
        if (typeof chunk === 'string')
          chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
        else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
      };
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        for (const part of rest) Object.assign(head, headerObject(part));
        return writeHead(status, ...rest);
      }) as typeof res.writeHead;
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        keep(chunk, rest[0]);
        return write(chunk, ...rest);
      }) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (typeof chunk !== 'function') keep(chunk, rest[0]);
        return end(chunk, ...rest);
      }) as typeof res.end;
      res.once('finish', () => {
        record({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          requestHeaders: req.headers,
          status: res.statusCode,
          headers: { ...lowerCased(head), ...lowerCased(res.getHeaders()) },
          body: Buffer.concat(chunks),
        });
      });
    },
  );
  // Requests Node's parser refused are answered on the socket itself (http/server/client-errors.ts).
  server.prependListener('clientError', (error: Error & { rawPacket?: Buffer }, socket: Duplex) => {
    const request = requestOf(socket, error.rawPacket);
    const end = socket.end.bind(socket) as (...args: unknown[]) => Duplex;
    socket.end = ((data?: unknown, ...rest: unknown[]) => {
      const text =
        typeof data === 'string' ? data : data instanceof Uint8Array ? Buffer.from(data).toString('utf8') : '';
      const answer = parseAnswer(text);
      if (answer)
        record({ ...request, status: answer.status, headers: answer.headers, body: Buffer.from(answer.body, 'utf8') });
      return end(data, ...rest);
    }) as typeof socket.end;
  });
}

/** The refused request's method and path: from its parsed head when it got that far, else the request line of the refused bytes. */
function requestOf(socket: Duplex, rawPacket: Buffer | undefined): Pick<Exchange, 'method' | 'url' | 'requestHeaders'> {
  const req = (socket as { _httpMessage?: { req?: { method?: string; url?: string; headers: IncomingHttpHeaders } } })
    ._httpMessage?.req;
  if (req?.url !== undefined) return { method: req.method ?? 'GET', url: req.url, requestHeaders: req.headers };
  const line = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(rawPacket?.toString('latin1') ?? '');
  return { method: line?.[1] ?? 'UNKNOWN', url: line?.[2] ?? '', requestHeaders: {} };
}

function headerObject(part: unknown): OutgoingHttpHeaders {
  if (Array.isArray(part)) {
    const headers: OutgoingHttpHeaders = {};
    for (let i = 0; i + 1 < part.length; i += 2) headers[String(part[i])] = part[i + 1] as string;
    return headers;
  }
  return typeof part === 'object' && part !== null ? (part as OutgoingHttpHeaders) : {};
}

function lowerCased(headers: Readonly<Record<string, unknown>>): Exchange['headers'] {
  const out: Record<string, string | string[] | number | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name.toLowerCase()] = value as string | string[] | number;
  return out;
}
