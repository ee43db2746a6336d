import { createHash, timingSafeEqual } from 'node:crypto';
import type { onRequestHookHandler } from 'fastify';
import type { AppConfig } from '../../config/config.js';
import { Forbidden, Unauthenticated } from '../../kernel/errors.js';

/** Production without METRICS_TOKEN: nobody may read /metrics. */
export class MetricsDisabled extends Forbidden {
  constructor() {
    super('METRICS_DISABLED', '/metrics is closed: set METRICS_TOKEN to read it in production.');
  }
}

/** METRICS_TOKEN is set and the request does not carry it. */
export class MetricsTokenRequired extends Unauthenticated {
  constructor() {
    super(
      'METRICS_TOKEN_REQUIRED',
      '/metrics requires Authorization: Bearer <METRICS_TOKEN>.',
      'Bearer realm="metrics"',
    );
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may read /metrics (it shows traffic by route and process internals): with METRICS_TOKEN,
 * only a request carrying it as a bearer token (compared in constant time, over digests so the
 * length does not leak either); without it, nobody in production and anybody in staging.
 */
export function metricsAccess(config: Pick<AppConfig, 'env' | 'metricsToken'>): onRequestHookHandler {
  const expected = config.metricsToken === undefined ? undefined : digest(`Bearer ${config.metricsToken}`);
  return (request, _reply, done) => {
    if (expected === undefined) {
      done(config.env === 'production' ? new MetricsDisabled() : undefined);
      return;
    }
    const given = request.headers.authorization;
    done(
      typeof given === 'string' && timingSafeEqual(digest(given), expected) ? undefined : new MetricsTokenRequired(),
    );
  };
}
