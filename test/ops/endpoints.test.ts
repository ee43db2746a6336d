import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';

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
    expect(res.json()).toEqual({ status: 'ready', database: DIALECT });
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
