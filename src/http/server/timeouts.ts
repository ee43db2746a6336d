import type { ServerOptions } from 'node:http';
import type { AppConfig } from '../../config/config.js';

type TimeoutConfig = Pick<AppConfig, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>;

/**
 * The Fastify options that bound how long a connection may take to deliver a request. Fastify's
 * own default `requestTimeout` is 0 (never), which let a client that sent headers and no body hold
 * a socket for ever; Node then answers 408 through 'clientError' (http/server/client-errors.ts).
 * `http` reaches `createServer` in Fastify and in the front cache's server factory alike.
 */
export function serverTimeoutOptions(config: TimeoutConfig): {
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  http: ServerOptions;
} {
  return {
    keepAliveTimeout: config.keepAliveTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    // No socket inactivity timeout besides these: it would cut slow handlers mid-answer without a 408.
    connectionTimeout: 0,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(config),
    },
  };
}

/**
 * Node checks the two request timeouts only every `connectionsCheckingInterval` (30 s by
 * default, which would triple a 10 s headers timeout): check four times per shortest timeout,
 * at most once a second, at least every 25 ms.
 */
export function checkingIntervalMs(config: TimeoutConfig): number {
  const shortest = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
  return Math.max(25, Math.min(1000, Math.floor(shortest / 4)));
}
