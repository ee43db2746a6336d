import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LATENCY_BUCKETS, RequestSeries } from './request-series.js';

/** The same two metrics as prom-client's own counter and histogram (what RequestSeries replaced). */
function promClientSeries() {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered.',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request received to response sent.',
    labelNames,
    buckets: [...LATENCY_BUCKETS],
    registers: [registry],
  });
  const record = (method: string, route: string, statusCode: number, elapsedMs: number) => {
    const labels = { method, route, status_code: String(statusCode) };
    requests.inc(labels);
    latency.observe(labels, elapsedMs / 1000);
  };
  return { registry, record };
}

const request = fc.tuple(
  fc.constantFrom('GET', 'POST'),
  fc.constantFrom('/health', '/quotes/v1/:brandCode', 'unmatched', 'with "quote" \\ and\nnewline'),
  fc.constantFrom(200, 201, 304, 404),
  fc.oneof(fc.double({ min: 0, max: 5000, noNaN: true }), fc.constantFrom(...LATENCY_BUCKETS.map((s) => s * 1000))),
);

describe('RequestSeries', () => {
  it('exposes what prom-client exposes for the same requests', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { maxLength: 60 }), async (requests) => {
        const ours = new RequestSeries();
        const theirs = promClientSeries();
        const registry = new Registry();
        ours.registerWith(registry);
        for (const [method, route, status, ms] of requests) {
          ours.record(method, route, status, ms);
          theirs.record(method, route, status, ms);
        }
        expect(await registry.metrics()).toBe(await theirs.registry.metrics());
      }),
    );
  });

  it('starts again from zero when the registry is reset', async () => {
    const series = new RequestSeries();
    const registry = new Registry();
    series.registerWith(registry);
    series.record('GET', '/health', 200, 1);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('route="/health"');
  });
});
