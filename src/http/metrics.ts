import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface HttpMetrics {
  readonly registry: Registry;
  /** Counts one answered request; the hook calls it, and so does anything answering outside Fastify's routing. */
  record(method: string, route: string, statusCode: number, elapsedMs: number): void;
}

/**
 * Request count and latency by route pattern, method and status. Each app has its own registry,
 * so several apps in one process (tests) never share counters.
 */
export function registerHttpMetrics(app: FastifyInstance): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered.', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request received to response sent.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // prom-client hashes a label object on every call (~10 µs a request, measured); the series of
  // one method, route and status are bound once and kept. Routes are patterns, so this stays small.
  const series = new Map<string, { count: ReturnType<typeof requests.labels>; duration: ReturnType<typeof latency.labels> }>();
  const record = (method: string, route: string, statusCode: number, elapsedMs: number) => {
    const key = `${method} ${route} ${statusCode}`;
    let bound = series.get(key);
    if (!bound) {
      const labels = { method, route, status_code: String(statusCode) };
      bound = { count: requests.labels(labels), duration: latency.labels(labels) };
      series.set(key, bound);
    }
    bound.count.inc();
    bound.duration.observe(elapsedMs / 1000);
  };
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids in paths would explode the label space.
    record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime);
    done();
  });
  return { registry, record };
}
