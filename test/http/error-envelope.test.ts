import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { BrandParams } from '../../src/http/schemas.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';

// A probe route with the contract's brand parameter and a typed body exercises the shared
// machinery (validation, parsing, error mapping) independently of any one area.
const ProbeBody = Type.Object({
  quote: Type.Object({
    input: Type.Object({ tripValue: Type.Number(), departureDate: Type.String({ format: 'date' }) }),
  }),
});

describe(`HTTP error envelope (${DIALECT})`, () => {
  const t = useTestApp({
    env: { BASE_PATH: '/api', BODY_LIMIT_BYTES: '2048' },
    beforeReady(app) {
      app.post('/api/probe/:brandCode', { schema: { params: BrandParams, body: ProbeBody } }, () => ({ ok: true }));
      app.get('/api/explode', () => {
        throw new Error('secret internal detail at /srv/app.ts:42');
      });
    },
  });

  const post = (url: string, payload: string, contentType = 'application/json') =>
    t().app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });
  const good = JSON.stringify({ quote: { input: { tripValue: 1200, departureDate: '2027-01-10' } } });

  it('accepts a valid body on a known brand under the base path', async () => {
    const res = await post('/api/probe/brandau', good);
    expect(res.statusCode).toBe(200);
  });

  it('answers an unknown brand with 404 UNKNOWN_BRAND', async () => {
    const res = await post('/api/probe/acme', good);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      validation: {
        isValid: false,
        errors: [
          { code: 'UNKNOWN_BRAND', message: "Brand 'acme' does not exist.", property: 'brandCode', value: 'acme' },
        ],
      },
    });
  });

  it('answers an unknown route with 404 ROUTE_NOT_FOUND, also outside the base path', async () => {
    for (const url of ['/api/nowhere', '/probe/brandau']) {
      const res = await t().app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json().validation.errors[0].code).toBe('ROUTE_NOT_FOUND');
    }
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const res = await post('/api/probe/brandau', '{"quote": {');
    expect(res.statusCode).toBe(400);
    expect(res.json().validation.errors[0].code).toBe('MALFORMED_JSON');
  });

  it('answers a wrong content type with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await post('/api/probe/brandau', good, type);
      expect(res.statusCode, type).toBe(415);
      expect(res.json().validation.errors[0].code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('answers an oversized body with 413', async () => {
    const res = await post('/api/probe/brandau', JSON.stringify({ pad: 'x'.repeat(4096) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().validation.errors[0].code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('lists every schema violation with a JSON path, never coercing JSON types', async () => {
    const res = await post(
      '/api/probe/brandau',
      JSON.stringify({ quote: { input: { tripValue: '1200', departureDate: '10/01/2027' } } }),
    );
    expect(res.statusCode).toBe(400);
    const errors = res.json().validation.errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'INVALID_TYPE', property: 'quote.input.tripValue', value: '1200' }),
        expect.objectContaining({ code: 'INVALID_FORMAT', property: 'quote.input.departureDate', value: '10/01/2027' }),
      ]),
    );
  });

  it('names a missing property', async () => {
    const res = await post('/api/probe/brandau', JSON.stringify({ quote: { input: { tripValue: 1 } } }));
    expect(res.json().validation.errors).toEqual([
      expect.objectContaining({ code: 'FIELD_REQUIRED', property: 'quote.input.departureDate' }),
    ]);
  });

  it('never echoes something that looks like a card number', async () => {
    const res = await post(
      '/api/probe/brandau',
      JSON.stringify({ quote: { input: { tripValue: '4111 1111 1111 1111', departureDate: '2027-01-01' } } }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/4111/);
  });

  it('hides internals of a server error behind the request id', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/explode' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    const requestId = res.headers['x-request-id'];
    expect(res.json()).toEqual({
      validation: {
        isValid: false,
        errors: [
          { code: 'INTERNAL_ERROR', message: 'The server could not complete the request.', tokens: { requestId } },
        ],
      },
    });
  });

  it('echoes a sane caller request id and replaces an unsafe one', async () => {
    const kept = await t().app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'partner-trace-0001' },
    });
    expect(kept.headers['x-request-id']).toBe('partner-trace-0001');
    const replaced = await t().app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
