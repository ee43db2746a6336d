import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { rawExchange, sleep } from '../helpers/raw-http.js';
import { boughtPolicy, previewCancellation, type ChangeAnswer } from '../policy-changes/support.js';

/**
 * Answers the server gives that the OpenAPI document must describe (the contract check of every
 * answer, test/helpers/contract/, fails a test here when it does not): 415 wherever a body may
 * come, 422 when a confirm or a resend reuses its key, bodies that may be left out, and the token
 * path's refusals below the endpoint in OAuth's shape.
 */

const getApp = useTestApp({ env: { DEMO_DATA: 'true' } });
const codeOf = (res: LightMyRequestResponse) =>
  res.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]?.code;
const EVENT = 'evt_AAAAAAAAAAAAAAAAAAAAAA';
const POLICY = '/policies/v1/brandau/policies/TIAU260000001';

describe(`answers the OpenAPI document describes (${DIALECT})`, () => {
  it('415 UNSUPPORTED_MEDIA_TYPE on every operation that may carry a body, not only the JSON-body ones', async () => {
    const t = getApp();
    const headers = { ...(await bearerFor(t, 'brandau')), 'content-type': 'text/plain' };
    const calls: [method: 'POST' | 'PATCH' | 'DELETE', url: string][] = [
      ['POST', `${POLICY}/documents/send`],
      ['POST', '/partners/v1/brandau/webhooks'],
      ['PATCH', '/partners/v1/brandau/webhooks/whe_AAAAAAAAAAAAAAAAAAAAAA'],
      ['DELETE', '/partners/v1/brandau/webhooks/whe_AAAAAAAAAAAAAAAAAAAAAA'],
      ['POST', '/partners/v1/brandau/webhooks/whe_AAAAAAAAAAAAAAAAAAAAAA/rotate-secret'],
      ['POST', '/partners/v1/brandau/webhooks/whe_AAAAAAAAAAAAAAAAAAAAAA/test'],
      ['POST', `/partners/v1/brandau/events/${EVENT}/redeliver`],
      ['POST', '/partners/v1/brandau/events/redeliver'],
    ];
    for (const [method, url] of calls) {
      const res = await t.app.inject({ method, url, headers, payload: 'hello' });
      expect(res.statusCode, `${method} ${url}`).toBe(415);
      expect(codeOf(res)).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('422 IDEMPOTENCY_KEY_REUSED when a confirm or a resend sends its key with another request', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau');
    const paths = [
      `${POLICY}/amendments/00000000-0000-4000-8000-000000000000/confirm`,
      `${POLICY}/cancellations/00000000-0000-4000-8000-000000000000/confirm`,
      `${POLICY}/documents/send`,
    ];
    for (const [i, url] of paths.entries()) {
      const key = { ...headers, 'idempotency-key': `reused-key-${String(i)}` };
      // The first answer (the policy is not found) is kept for the key…
      const first = await t.app.inject({ method: 'POST', url, headers: key, payload: {} });
      expect(first.statusCode, first.body).toBe(404);
      // … so the key cannot carry another request.
      const other = { clientInfo: { ipAddress: '192.0.2.1' }, emailAddress: 'other@example.com' };
      const body = url.endsWith('/send') ? { emailAddress: other.emailAddress } : { clientInfo: other.clientInfo };
      const reused = await t.app.inject({ method: 'POST', url, headers: key, payload: body });
      expect(reused.statusCode, reused.body).toBe(422);
      expect(codeOf(reused)).toBe('IDEMPOTENCY_KEY_REUSED');
    }
  });

  it('a cancellation is confirmed with no body at all (the body is optional)', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const preview = (
      await previewCancellation(t, policyNumber, { reasonCode: 'CHANGE_OF_PLANS' })
    ).json<ChangeAnswer>();
    expect(preview.id).toBeDefined();
    const res = await t.app.inject({
      method: 'POST',
      url: `/policies/v1/brandau/policies/${policyNumber}/cancellations/${preview.id!}/confirm`,
      headers: { ...(await bearerFor(t, 'brandau')), 'idempotency-key': `no-body-${policyNumber}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ policy: { policyStatus: string } }>().policy.policyStatus).toBe('Cancelled');
  });

  it('the token path refuses a malformed URL (400) and an overlong brand (414) in OAuth’s body', async () => {
    const t = getApp();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const malformed = await t.app.inject({ method: 'POST', url: '/users/%zz/token', headers: form, payload: '' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    const long = await t.app.inject({ method: 'POST', url: `/users/${'b'.repeat(101)}/token`, headers: form });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });

  it('the token path refuses headers too large (431) and bytes that are not HTTP (400) in OAuth’s body', async () => {
    const t = getApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const head = 'POST /users/brandau/token HTTP/1.1\r\nHost: 127.0.0.1\r\n';
    const big = await rawExchange(port, (socket) => {
      socket.write(`${head}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    expect(big.status).toBe(431);
    expect(JSON.parse(big.body)).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    const notHttp = await rawExchange(port, (socket) => {
      socket.write(`${head}Bad Header: x\r\n\r\n`);
    });
    expect(notHttp.status).toBe(400);
    expect(JSON.parse(notHttp.body)).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    // Headers that overflow in a later packet than the request line: the path is unknown, so the
    // body is one that both kinds of client read (OAuth's fields and the common envelope).
    const split = await rawExchange(port, async (socket) => {
      socket.write(head);
      await sleep(50);
      socket.write(`X-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    expect(split.status).toBe(431);
    expect(JSON.parse(split.body)).toMatchObject({
      error: 'invalid_request',
      validation: { isValid: false, errors: [{ code: 'HEADERS_TOO_LARGE' }] },
    });
  });
});
