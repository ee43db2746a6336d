/**
 * The front cache: answers a product read this process has already answered, before Fastify
 * routes it, with the same bytes and headers (cache-headers.ts builds them for both paths), the
 * same request log line and the same metrics, for a caller memory vouches for. Everything else (an
 * unknown URL, a token not verified here yet, another brand, a newer catalogue, draining) goes to
 * Fastify untouched, which also gives every error. Why it exists: routing, hooks and the reply
 * pipeline cost more than the whole answer (docs/performance.md). It is Fastify's `serverFactory`,
 * so `app.inject` never meets it; test/http/front-cache.test.ts compares both paths over real
 * connections. The catalogue's routes `remember` what they answered (catalogue/routes.ts);
 * front-cache-wiring.ts gives it what it asks of the app.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import type { RequestLineWriter } from '../../logging/request-log-line.js';
import { setBounded } from '../../kernel/cache/bounded-map.js';
import { loggablePath } from '../../logging/loggable-path.js';
import { cachedResponseHeaders, namesEtag, type CachedResponse } from './cache-headers.js';
import type { HttpMetrics } from '../metrics.js';
import { requestIdFor } from '../request-id.js';

/** A product read Fastify has answered, as it may be answered again without routing. */
export interface RememberedRead {
  /** The brand of the path: only a token of this brand is answered from memory. */
  readonly brandCode: string;
  /**
   * Set when the answer depends on the caller's partner (a plan's partner-reserved terms): only a
   * token of this partner is answered from memory, and each partner's answer is remembered apart.
   */
  readonly partnerCode?: string;
  /** The route pattern, as metrics and the request log name it. */
  readonly route: string;
  /** The catalogue version the response was built from. */
  readonly versionId: number;
  /** From this instant on the answer may differ ("today" moved on); Infinity when it never does. */
  readonly validUntilMs: number;
  readonly response: CachedResponse;
}

/** Who a bearer token speaks for, as far as a remembered answer depends on it. */
export interface KnownCaller {
  readonly brandCode: string;
  readonly partnerCode: string;
}

/** What the front cache asks the app, each answer from memory (no I/O on this path). */
export interface FrontCacheDeps {
  /** For faults of the cache itself. */
  readonly log: FastifyBaseLogger;
  /** Writes the request's "request completed" line, as Fastify's request log would. */
  readonly logCompleted: RequestLineWriter;
  /** The client's address as `request.ip` would say it (the trusted proxies' X-Forwarded-For). */
  readonly clientAddressOf: (req: IncomingMessage) => string | undefined;
  readonly metrics: Pick<HttpMetrics, 'record'>;
  /** False while draining or closing: Fastify answers those (`Connection: close`, 503). */
  accepting(): boolean;
  /** The catalogue version in force, when it was checked recently enough; else undefined. */
  freshCatalogueVersion(): number | undefined;
  /**
   * The caller's brand and partner when memory vouches for its bearer token at `nowMs`
   * (auth/known-bearer.ts); else undefined. `connection` lets it remember the last token seen on a
   * keep-alive connection.
   */
  callerOf(authorization: string | undefined, nowMs: number, connection: object): KnownCaller | undefined;
  /**
   * Counts a read against the caller's request budget (http/limits/rate-limits.ts), so reads answered
   * from memory count like any other; absent when limits are off. False: over budget, and Fastify
   * answers (429, counting it once more: the caller is over its budget either way).
   */
  admitRead?(authorization: string | undefined, nowMs: number, connection: object): Promise<boolean>;
  nowMs(): number;
}

/** Distinct URLs remembered; product reads have a few dozen per brand, so this never binds in practice. */
export const FRONT_CACHE_CAPACITY = 2000;
/** Partners remembered per partner-dependent URL. */
export const PARTNERS_PER_URL = 200;

/** One answer for every caller of the brand, or one per partner when the answer depends on it. */
type Remembered = RememberedRead | Map<string, RememberedRead>;

/** Product reads remembered by URL, answered from memory while they hold (see the top of this file). */
export class FrontCache {
  readonly #reads = new Map<string, Remembered>();
  #deps: FrontCacheDeps | undefined;
  /** Requests answered from memory so far. */
  answered = 0;

  constructor(private readonly capacity = FRONT_CACHE_CAPACITY) {}

  get size(): number {
    return this.#reads.size;
  }

  /** Wires the cache to the app once the app exists; until then it answers nothing. */
  connect(deps: FrontCacheDeps): void {
    this.#deps = deps;
  }

  /** Remembers how Fastify answered `url` (the raw request target, query included), for `read.partnerCode` when set. */
  remember(url: string, read: RememberedRead): void {
    if (read.partnerCode === undefined) {
      setBounded(this.#reads, url, read, this.capacity);
      return;
    }
    let byPartner = this.#reads.get(url);
    if (!(byPartner instanceof Map)) {
      byPartner = new Map();
      setBounded(this.#reads, url, byPartner, this.capacity);
    }
    setBounded(byPartner, read.partnerCode, read, PARTNERS_PER_URL);
  }

  /**
   * Answers `req` and returns true, or returns false having touched nothing. With request limits
   * on it may also return true and hand `req` to `fallback` (Fastify) later.
   */
  answer(
    req: IncomingMessage,
    res: ServerResponse,
    fallback: (req: IncomingMessage, res: ServerResponse) => void,
  ): boolean {
    const deps = this.#deps;
    if (deps === undefined || req.method !== 'GET' || req.url === undefined) return false;
    const remembered = this.#reads.get(req.url);
    if (remembered === undefined) return false;
    try {
      return this.#answer(req, res, deps, remembered, req.url, fallback);
    } catch (error) {
      return !this.#failed(error, req, res, deps);
    }
  }

  /**
   * A fault here must not take the process down (this runs outside Fastify's error handling):
   * returns true when Fastify may still answer (nothing sent yet); a half-sent answer has its
   * connection cut.
   */
  #failed(error: unknown, req: IncomingMessage, res: ServerResponse, deps: FrontCacheDeps): boolean {
    deps.log.error({ err: error, path: loggablePath(req.url ?? '') }, 'front cache failed');
    if (!res.headersSent) {
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      return true;
    }
    if (!res.writableEnded) res.destroy();
    return false;
  }

  #answer(
    req: IncomingMessage,
    res: ServerResponse,
    deps: FrontCacheDeps,
    remembered: Remembered,
    url: string,
    fallback: (req: IncomingMessage, res: ServerResponse) => void,
  ): boolean {
    const startedAt = performance.now();
    const { headers } = req;
    // A GET with a body is odd enough to leave to Fastify.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const nowMs = deps.nowMs();
    if (!deps.accepting()) return false;
    const caller = deps.callerOf(headers.authorization, nowMs, req.socket);
    if (caller === undefined) return false;
    const read = remembered instanceof Map ? remembered.get(caller.partnerCode) : remembered;
    if (read === undefined || read.brandCode !== caller.brandCode) return false;
    if (read.partnerCode !== undefined && read.partnerCode !== caller.partnerCode) return false;
    if (deps.freshCatalogueVersion() !== read.versionId || nowMs >= read.validUntilMs) return false;
    const admission = deps.admitRead?.(headers.authorization, nowMs, req.socket);
    if (admission === undefined) {
      this.#send(req, res, deps, read, url, startedAt);
      return true;
    }
    void admission.then(
      (admitted) => {
        if (!admitted) return fallback(req, res);
        try {
          this.#send(req, res, deps, read, url, startedAt);
        } catch (error) {
          if (this.#failed(error, req, res, deps)) fallback(req, res);
        }
      },
      (error: unknown) => {
        if (this.#failed(error, req, res, deps)) fallback(req, res);
      },
    );
    return true;
  }

  #send(
    req: IncomingMessage,
    res: ServerResponse,
    deps: FrontCacheDeps,
    read: RememberedRead,
    url: string,
    startedAt: number,
  ): void {
    const { headers } = req;
    const id = requestIdFor(req);
    const { response } = read;
    const notModified = namesEtag(headers['if-none-match'], response.etag);
    const statusCode = notModified ? 304 : 200;
    // One writeHead instead of a setHeader each (Node validates every header once either way).
    const answer = res.writeHead(statusCode, cachedResponseHeaders(id, response, notModified));
    if (notModified) answer.end();
    else answer.end(response.payload);
    this.answered++;
    const elapsedMs = performance.now() - startedAt;
    deps.metrics.record('GET', read.route, statusCode, elapsedMs);
    deps.logCompleted({
      id,
      url,
      ip: deps.clientAddressOf(req),
      userAgent: headers['user-agent'],
      statusCode,
      route: read.route,
      elapsedMs,
    });
  }
}

/**
 * Fastify's `serverFactory`: the HTTP/1 server Fastify would build itself (same timeouts), with
 * `cache` asked first.
 */
export function serverWithFrontCache(cache: FrontCache): FastifyServerFactory {
  return (handler, options) => {
    const server: Server = createServer((options.http ?? {}) as ServerOptions, (req, res) => {
      if (!cache.answer(req, res, handler)) handler(req, res);
    });
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    const maxRequestsPerSocket = options.maxRequestsPerSocket as number | null | undefined;
    if (maxRequestsPerSocket) server.maxRequestsPerSocket = maxRequestsPerSocket;
    return server;
  };
}
