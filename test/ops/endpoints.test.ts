import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { enqueue } from '../../src/db/outbox/repository.js';
import { WEBHOOK_DELIVERY } from '../../src/events/webhooks/repository-attempts.js';
import { DELIVERED_KINDS } from '../../src/outbox-kinds.js';

const NO_LAG = Object.fromEntries(DELIVERED_KINDS.map((kind) => [kind, 0]));

describe(`operations endpoints (${DIALECT})`, () => {
  const t = useTestApp();

  it('reports liveness', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('reports readiness with the engine in use', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', database: DIALECT, deliveryLagSeconds: NO_LAG });
  });

  it('counts requests by route pattern and status', async () => {
    await t().app.inject({ method: 'GET', url: '/health' });
    await t().app.inject({ method: 'GET', url: '/no/such/route' });
    const res = await t().app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/health",status_code="200"\} \d+/);
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="unmatched",status_code="404"\} 1/);
    expect(res.body).toContain('http_request_duration_seconds_bucket');
  });
});

describe(`delivery lag (${DIALECT})`, () => {
  it('shows the oldest due message’s wait per kind in /ready and /metrics, and stays ready', async () => {
    // An app of its own: the lag read is kept for a few seconds, and other tests read it first.
    const t = await buildTestApp();
    try {
      const at = new Date(Date.now() - 90_000).toISOString();
      await enqueue(t.database.db, { key: 'lagging:1', kind: WEBHOOK_DELIVERY, payload: {}, at });
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      const lag = /outbox_delivery_lag_seconds\{kind="webhook-delivery"\} ([\d.]+)/.exec(metrics.body);
      expect(Number(lag?.[1])).toBeGreaterThanOrEqual(90);
      expect(metrics.body).toMatch(/outbox_delivery_lag_seconds\{kind="policy-documents"\} 0\n/);
      const ready = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(200);
      const body = ready.json<{ status: string; deliveryLagSeconds: Record<string, number> }>();
      expect(body.status).toBe('ready');
      expect(body.deliveryLagSeconds[WEBHOOK_DELIVERY]).toBeGreaterThanOrEqual(90);
      expect(body.deliveryLagSeconds['policy-documents']).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe(`readiness without a database (${DIALECT})`, () => {
  it('answers 503 when the database is gone', async () => {
    const t = await buildTestApp();
    try {
      await t.database.db.destroy();
      const res = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', database: DIALECT });
    } finally {
      await t.app.close();
      await t.database.destroy().catch(() => undefined);
    }
  });
});
