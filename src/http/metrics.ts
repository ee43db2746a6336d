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
 * so several apps in one process (tests) never share counters. Made before the app, so the
 * answers Fastify gives outside its hooks (http/server/client-errors.ts, pre-routing errors) count too.
 */
export function createHttpMetrics(options: { nodeVersion: boolean }): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // The exact Node.js version tells an attacker which CVEs apply: shown only behind METRICS_TOKEN.
  if (!options.nodeVersion) registry.removeSingleMetric('nodejs_version_info');
  const series = new RequestSeries();
  series.registerWith(registry);
  const record = (method: string, route: string, statusCode: number, elapsedMs: number) =>
    series.record(method, route, statusCode, elapsedMs);
  return { registry, record };
}

/** Counts every request Fastify answers through its hooks. */
export function registerHttpMetrics(app: FastifyInstance, metrics: HttpMetrics): HttpMetrics {
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids in paths would explode the label space.
    metrics.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime);
    done();
  });
  return metrics;
}
