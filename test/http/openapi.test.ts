import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';

describe('OpenAPI document', () => {
  // The committed copy is generated with this public URL (see `npm run openapi:write`).
  const t = useTestApp({ env: { PUBLIC_BASE_URL: 'http://localhost:3000' } });

  const fetchDocument = async () => {
    const res = await t().app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    return res.json<{ openapi: string; paths: Record<string, unknown> }>();
  };

  it('is OpenAPI 3.1 and describes the operations endpoints', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/health', '/ready', '/metrics']));
  });

  it('is rendered at /docs', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger-ui');
  });

  it('matches the committed docs/openapi.json (run `npm run openapi:write` after changing a route)', async () => {
    const committed = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as unknown;
    expect(await fetchDocument()).toEqual(committed);
  });

  it('names the contract types once, with enums, examples and the shared headers and errors', async () => {
    /* eslint-disable @typescript-eslint/no-explicit-any -- walking a JSON document */
    const document = (await fetchDocument()) as unknown as {
      paths: Record<string, Record<string, Record<string, any>>>;
      components: { schemas: Record<string, any>; headers: Record<string, unknown> };
    };
    /* eslint-enable @typescript-eslint/no-explicit-any */
    const text = JSON.stringify(document);
    const { schemas } = document.components;
    for (const name of [
      'Quote',
      'QuoteRequest',
      'PurchaseRequest',
      'PurchaseResponse',
      'PolicySummary',
      'ErrorResponse',
    ])
      expect(schemas[name]).toBeDefined();
    // The Quote is written out once, in components, and referred to everywhere else.
    expect(text.split('"title":"Quote"').length - 1).toBe(1);
    expect(text.split('"$ref":"#/components/schemas/Quote"').length - 1).toBeGreaterThan(3);
    expect(schemas.PurchaseResponse.properties.paymentResult.enum).toContain('THREEDS_CHALLENGE_REQUIRED');
    expect(schemas.ThreeDsResponseInfo.properties.threeDSStatus.enum).toContain('CHALLENGE_REQUIRED');
    expect(schemas.TokenForm.properties.grant_type.enum).toEqual(['password', 'refresh_token']);
    expect(schemas.PolicySummary.properties.policyStatus.enum).toEqual(['Active', 'Cancelled']);
    expect(schemas.PurchaseRequest.required).toContain('quote');
    expect(schemas.QuoteMinimum.required).toContain('id');

    const purchase = document.paths['/quotes/v2/{brandCode}/purchase']!.post!;
    // Each operation's body has the one example "Try it out" sends (src/api-examples/catalogue.ts).
    const body = purchase.requestBody.content['application/json'];
    expect(body.examples).toBeUndefined();
    expect(body.example).toMatchObject({ paymentMethod: 'ON_ACCOUNT' });
    expect(purchase.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(Object.keys(purchase.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '408', '413', '414', '429', '431', '500', '503']),
    );
    expect(Object.keys(purchase.responses['200'].headers)).toEqual(expect.arrayContaining(['X-Request-Id']));
    expect(Object.keys(purchase.responses['401'].headers)).toContain('WWW-Authenticate');
    const config = document.paths['/products/v1/{brandCode}/baseQuoteConfig']!.get!;
    expect(config.parameters.find((p: { name: string }) => p.name === 'quoteType').required).toBeFalsy();
    expect(config.parameters.map((p: { name: string }) => p.name)).toContain('If-None-Match');
    expect(Object.keys(config.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
    expect(Object.keys(document.components.headers)).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Policy', 'RateLimit']),
    );
  });

  it('requires Idempotency-Key where the server does, and leaves out only the bodies the server lets be left out', async () => {
    /* eslint-disable @typescript-eslint/no-explicit-any -- walking a JSON document */
    const { paths } = (await fetchDocument()) as unknown as { paths: Record<string, Record<string, any>> };
    /* eslint-enable @typescript-eslint/no-explicit-any */
    const keyOf = (path: string) =>
      paths[path]!.post.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key') as { required: boolean };
    const change = '/policies/v1/{brandCode}/policies/{policyNumber}';
    expect(keyOf(`${change}/amendments/{amendmentId}/confirm`).required).toBe(true);
    expect(keyOf(`${change}/cancellations/{cancellationId}/confirm`).required).toBe(true);
    expect(keyOf('/quotes/v2/{brandCode}/purchase').required).toBe(false);
    expect(keyOf(`${change}/documents/send`).required).toBe(false);
    const optional = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.requestBody?.required === false)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(optional.sort()).toEqual([
      'POST /partners/v1/{brandCode}/events/{eventId}/redeliver',
      'POST /partners/v1/{brandCode}/webhooks/{webhookId}/rotate-secret',
      `POST ${change}/cancellations/{cancellationId}/confirm`,
      `POST ${change}/documents/send`,
    ]);
  });

  it('types the feed’s events by `type`: one schema per event type, the same the webhooks section delivers', async () => {
    /* eslint-disable @typescript-eslint/no-explicit-any -- walking a JSON document */
    const document = (await fetchDocument()) as unknown as {
      webhooks: Record<string, any>;
      components: { schemas: Record<string, any> };
    };
    /* eslint-enable @typescript-eslint/no-explicit-any */
    const { Event, EventFeed, EventDetail } = document.components.schemas;
    expect(EventFeed.properties.events.items).toEqual({ $ref: '#/components/schemas/Event' });
    expect(EventDetail.allOf[0]).toEqual({ $ref: '#/components/schemas/Event' });
    const delivered = Object.fromEntries(
      Object.entries(document.webhooks).map(([type, item]) => [
        type,
        item.post.requestBody.content['application/json'].schema.$ref as string,
      ]),
    );
    expect(Event.discriminator).toEqual({ propertyName: 'type', mapping: delivered });
    expect(Event.oneOf).toEqual(Object.values(delivered).map(($ref) => ({ $ref })));
    for (const [type, ref] of Object.entries(delivered)) {
      const schema = document.components.schemas[ref.replace('#/components/schemas/', '')];
      expect(schema.properties.type.enum).toEqual([type]);
      expect(schema.properties.data.$ref).toMatch(/^#\/components\/schemas\/[A-Za-z]+Data$/);
    }
  });
});
