import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { dialectOf } from '../../db/dialect.js';
import type { Lifecycle } from '../server/lifecycle.js';
import type { StorageHealth } from '../../db/storage-health.js';
import type { DeliveryLag, DeliveryLagReport } from '../../db/outbox/lag.js';
import { Gauge } from 'prom-client';
import type { HttpMetrics } from '../metrics.js';
import { errorResponses } from '../error-responses.js';
import { MetricsDisabled, MetricsTokenRequired, metricsAccess } from './metrics-access.js';
import { HealthResponse, ReadyResponse } from './schemas.js';

/** Liveness, readiness and metrics: outside the base path; /metrics is private in production (metrics-access.ts). */
export const operationsRoutes: FastifyPluginAsyncTypebox<{
  context: AppContext;
  metrics: HttpMetrics;
  lifecycle: Lifecycle;
  storage: StorageHealth;
  deliveryLag: DeliveryLag;
}> = (app, { context, metrics, lifecycle, storage, deliveryLag }) => {
  const database = dialectOf(context.db);
  registerDeliveryLag(metrics, deliveryLag);
  /** The lag as /ready shows it: by kind, whole milliseconds as seconds; absent when it cannot be read. */
  const lagDetails = async (log: { warn(o: object, m: string): void }) => {
    try {
      return { deliveryLagSeconds: lagObject(await deliveryLag.read()) };
    } catch (error) {
      log.warn({ err: error }, 'delivery lag not read');
      return {};
    }
  };

  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        operationId: 'health',
        summary: 'Liveness',
        description: 'Answers while the process is up.',
        response: { 200: HealthResponse },
      },
    },
    () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['operations'],
        operationId: 'ready',
        summary: 'Readiness',
        description:
          'Answers 200 when the database answers a query; 503 when it does not, for a few seconds after its storage ' +
          'refused a write (disk full), or while the process drains before shutdown. A 200 reports the delivery lag ' +
          '(`deliveryLagSeconds`); a lag does not fail readiness.',
        response: {
          200: ReadyResponse,
          503: { ...ReadyResponse, examples: [{ status: 'draining', database: 'postgres' }] },
        },
      },
    },
    async (_request, reply) => {
      if (lifecycle.draining) return reply.status(503).send({ status: 'draining' as const, database });
      if (storage.refusingWrites) return reply.status(503).send({ status: 'unavailable' as const, database });
      try {
        await sql`select 1`.execute(context.db);
        return { status: 'ready' as const, database, ...(await lagDetails(reply.log)) };
      } catch (error) {
        reply.log.warn({ err: error }, 'readiness check failed');
        return reply.status(503).send({ status: 'unavailable' as const, database });
      }
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        description:
          'Request counts and latency by route and status, the outbox delivery lag by kind ' +
          '(`outbox_delivery_lag_seconds`), plus process metrics, in Prometheus text format. ' +
          'With `METRICS_TOKEN` set it requires `Authorization: Bearer <METRICS_TOKEN>` (401 `METRICS_TOKEN_REQUIRED` otherwise); ' +
          'without it, production answers 403 `METRICS_DISABLED` and staging answers anyone, without the Node.js version.',
        response: {
          200: {
            description: 'Prometheus exposition format.',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          ...errorResponses(new MetricsTokenRequired(), new MetricsDisabled()),
        },
      },
      onRequest: metricsAccess(context.config),
    },
    async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  return Promise.resolve();
};

/** A report as a plain object, kinds in their order, seconds to the millisecond. */
const lagObject = (report: DeliveryLagReport): Record<string, number> =>
  Object.fromEntries([...report].map(([kind, seconds]) => [kind, Math.round(seconds * 1000) / 1000]));

/**
 * The gauge `outbox_delivery_lag_seconds{kind}`: read when scraped (db/outbox/lag.ts caches it);
 * when the database cannot answer, the scrape shows no value rather than failing.
 */
function registerDeliveryLag(metrics: HttpMetrics, deliveryLag: DeliveryLag): void {
  new Gauge({
    name: 'outbox_delivery_lag_seconds',
    help: 'Seconds the oldest due outbox message of each kind has waited for delivery (0: none due).',
    labelNames: ['kind'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      const report = await deliveryLag.read().catch(() => undefined);
      for (const [kind, seconds] of report ?? []) this.set({ kind }, seconds);
    },
  });
}
