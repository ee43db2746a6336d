import type { FastifyInstance } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { RequestSeries } from './request-series.js';

export interface HttpMetrics {
  readonly registry: Registry;
  /** Counts one answered request; the hook calls it, and so does anything answering outside Fastify's routing. */
  record(method: string, route: string, statusCode: number, elapsedMs: number): void;
}

/**
 * Request count and latency by route pattern, method and status. Each app has its own registry,
 * so several apps in one process (tests) never share counters.
 */
export function registerHttpMetrics(app: FastifyInstance, options: { nodeVersion: boolean }): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // The exact Node.js version tells an attacker which CVEs apply: shown only behind METRICS_TOKEN.
  if (!options.nodeVersion) registry.removeSingleMetric('nodejs_version_info');
  const series = new RequestSeries();
  series.registerWith(registry);
  const record = (method: string, route: string, statusCode: number, elapsedMs: number) =>
    series.record(method, route, statusCode, elapsedMs);
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids in paths would explode the label space.
    record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime);
    done();
  });
  return { registry, record };
}
