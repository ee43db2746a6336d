import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { registerEndpoint, webhooksPath } from './support.js';

const URL_A = 'http://127.0.0.1:9/hooks/a';

describe(`webhook endpoints (${DIALECT})`, () => {
  const testApp = useTestApp();

  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
    partner: 'A' | 'B' = 'A',
  ) => {
    const t = testApp();
    return t.app.inject({
      method,
      url,
      headers: await bearerFor(t, 'brandau', partner),
      ...(payload === undefined ? {} : { payload }),
    });
  };

  it('registers an endpoint and shows its secret once', async () => {
    const created = await call('POST', webhooksPath(), {
      url: URL_A,
      eventTypes: ['policy.issued', 'policy.issued', 'policy.cancelled'],
      description: 'booking system',
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const body = created.json();
    expect(body).toMatchObject({
      url: URL_A,
      eventTypes: ['policy.issued', 'policy.cancelled'],
      description: 'booking system',
      enabled: true,
    });
    expect(body.webhookId).toMatch(/^whe_[A-Za-z0-9_-]{22}$/);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);

    const read = await call('GET', `${webhooksPath()}/${body.webhookId}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('secret');
    expect(read.body).not.toContain(body.secret.slice(6));
    const list = await call('GET', webhooksPath());
    expect(list.json().webhooks.map((w: { webhookId: string }) => w.webhookId)).toContain(body.webhookId);
    expect(list.body).not.toContain(body.secret.slice(6));

    // Sealed at rest: the table never holds the secret itself.
    const row = await testApp()
      .context.db.selectFrom('webhook_endpoint')
      .selectAll()
      .where('public_id', '=', body.webhookId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(body.secret.slice(6));
  });

  it("answers 404 WEBHOOK_NOT_FOUND for another partner's endpoint, and lists only the partner's own", async () => {
    const own = await registerEndpoint(testApp(), { url: URL_A });
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['PATCH', '', { enabled: false }],
      ['DELETE', '', undefined],
      ['POST', '/rotate-secret', {}],
      ['POST', '/test', undefined],
    ] as const) {
      const response = await call(method, `${webhooksPath()}/${own.webhookId}${suffix}`, payload, 'B');
      expect(response.statusCode, `${method} ${suffix}`).toBe(404);
      expect(response.json().validation.errors[0]).toMatchObject({ code: 'WEBHOOK_NOT_FOUND', property: 'webhookId' });
    }
    const listB = await call('GET', webhooksPath(), undefined, 'B');
    expect(listB.json().webhooks).toEqual([]);
    // Another brand's token on this brand's path: the guard refuses it (403).
    const t = testApp();
    const otherBrand = await t.app.inject({
      method: 'GET',
      url: webhooksPath(),
      headers: await bearerFor(t, 'brandnz', 'A'),
    });
    expect(otherBrand.statusCode).toBe(403);
    // Still there for its owner.
    expect((await call('GET', `${webhooksPath()}/${own.webhookId}`)).statusCode).toBe(200);
  });

  it('changes, disables and re-enables, and deletes (soft) an endpoint', async () => {
    const t = testApp();
    const { webhookId } = await registerEndpoint(t, { url: URL_A, description: 'x' });
    const path = `${webhooksPath()}/${webhookId}`;
    const changed = await call('PATCH', path, {
      url: 'http://localhost:9/other',
      eventTypes: ['payment.captured'],
      description: null,
      enabled: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      url: 'http://localhost:9/other',
      eventTypes: ['payment.captured'],
      enabled: false,
      disabledReason: 'PARTNER',
    });
    expect(changed.json()).not.toHaveProperty('description');
    // A failing endpoint re-enabled is healthy again.
    await t.context.db
      .updateTable('webhook_endpoint')
      .set({ failing_since: '2026-11-01T00:00:00.000Z', disabled_reason: 'FAILING' })
      .where('public_id', '=', webhookId)
      .execute();
    const enabled = await call('PATCH', path, { enabled: true });
    expect(enabled.json()).toMatchObject({ enabled: true });
    expect(enabled.json()).not.toHaveProperty('disabledReason');
    expect(enabled.json()).not.toHaveProperty('failingSince');

    const deleted = await call('DELETE', path);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call('GET', path)).statusCode).toBe(404);
    expect((await call('DELETE', path)).statusCode).toBe(404);
    const row = await t.context.db
      .selectFrom('webhook_endpoint')
      .select(['deleted_at', 'enabled'])
      .where('public_id', '=', webhookId)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });

  it('rotates the secret with a bounded overlap', async () => {
    const t = testApp();
    const { webhookId, secret } = await registerEndpoint(t, { url: URL_A });
    const path = `${webhooksPath()}/${webhookId}/rotate-secret`;
    const before = Date.now();
    const rotated = await call('POST', path);
    expect(rotated.statusCode).toBe(200);
    const body = rotated.json();
    expect(body.webhookId).toBe(webhookId);
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.secret).not.toBe(secret);
    const overlap = Date.parse(body.previousSecretExpiresAt) - before;
    expect(overlap).toBeGreaterThanOrEqual(86_400_000 - 1000);
    expect(overlap).toBeLessThan(86_400_000 + 5000);
    const short = await call('POST', path, { overlapSeconds: 60 });
    expect(Date.parse(short.json().previousSecretExpiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    expect((await call('POST', path, { overlapSeconds: 604_801 })).statusCode).toBe(400);
    const read = await call('GET', `${webhooksPath()}/${webhookId}`);
    expect(read.json().previousSecretExpiresAt).toBe(short.json().previousSecretExpiresAt);
  });

  it('validates the body: event types, URL', async () => {
    expect((await call('POST', webhooksPath(), { url: URL_A, eventTypes: ['policy.unknown'] })).statusCode).toBe(400);
    expect((await call('POST', webhooksPath(), {})).statusCode).toBe(400);
    const notUrl = await call('POST', webhooksPath(), { url: 'not a url' });
    expect(notUrl.statusCode).toBe(400);
    expect(notUrl.json().validation.errors[0]).toMatchObject({ code: 'WEBHOOK_URL_REFUSED', property: 'url' });
    // Staging refuses private addresses other than loopback, and credentials.
    for (const url of [
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest',
      'http://user:pw@127.0.0.1/x',
      'ftp://127.0.0.1/',
    ])
      expect((await call('POST', webhooksPath(), { url })).json().validation.errors[0].code, url).toBe(
        'WEBHOOK_URL_REFUSED',
      );
  });

  it('limits endpoints per partner and brand to 20 (deleted ones do not count)', async () => {
    const t = testApp();
    const existing = (await call('GET', webhooksPath())).json().webhooks.length as number;
    const ids: string[] = [];
    for (let i = existing; i < 20; i++) ids.push((await registerEndpoint(t, { url: `${URL_A}/${i}` })).webhookId);
    const refused = await call('POST', webhooksPath(), { url: URL_A });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().validation.errors[0].code).toBe('WEBHOOK_LIMIT_REACHED');
    // Partner B has its own allowance.
    expect((await call('POST', webhooksPath(), { url: URL_A }, 'B')).statusCode).toBe(201);
    await call('DELETE', `${webhooksPath()}/${ids[0]}`);
    expect((await call('POST', webhooksPath(), { url: URL_A })).statusCode).toBe(201);
  });

  it('holds the limit when 30 registrations arrive at once', async () => {
    const existing = (await call('GET', webhooksPath(), undefined, 'B')).json().webhooks.length as number;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call('POST', webhooksPath(), { url: `${URL_A}/parallel/${i}` }, 'B')),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(20 - existing);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(10 + existing);
    expect((await call('GET', webhooksPath(), undefined, 'B')).json().webhooks).toHaveLength(20);
  });
});
