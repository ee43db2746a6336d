import autocannon from 'autocannon';
import type { SuppliedRequest } from './requests.js';

export interface LoadOptions {
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Called as each request is built (once per request sent): what it sends instead or adds. */
  readonly next?: () => SuppliedRequest;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Exactly this many requests instead of load for `durationSeconds` (`--requests`: a run sized by count, not time). */
  readonly requests?: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly total: number;
  /** Successful (2xx) answers per second: what an absolute target counts. */
  readonly okPerSecond?: number;
  /** Requests asked of a request supply after it ran out (each answered non-2xx). */
  readonly supplyExhausted?: number;
}

/** Drives one URL with autocannon for a fixed time (or number of requests) and summarises what it measured. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const { next } = options;
  const result = await autocannon({
    url: options.url,
    method: options.method,
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    ...(options.requests === undefined ? { duration: options.durationSeconds } : { amount: options.requests }),
    ...(next ? { requests: [{ setupRequest: (request: autocannon.Request) => supplied(request, next()) }] } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
    okPerSecond: result.duration > 0 ? result['2xx'] / result.duration : 0,
  };
}

/** The request autocannon built with the supply's path, body and headers (over the request's own). */
function supplied(request: autocannon.Request, next: SuppliedRequest): autocannon.Request {
  const { headers, ...rest } = next;
  return { ...request, ...rest, ...(headers ? { headers: { ...request.headers, ...headers } } : {}) };
}
