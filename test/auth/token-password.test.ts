import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { ensureTestUser } from '../helpers/auth.js';
import { FAST_AUTH_ENV, partnerLogin, postToken } from './support.js';
import { createUser, deactivate } from '../../src/auth/accounts.js';

const getApp = useTestApp({ env: FAST_AUTH_ENV });

function expectNoStore(response: { headers: Record<string, unknown> }) {
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers.pragma).toBe('no-cache');
}

describe('POST /users/{brandCode}/token, grant_type=password', () => {
  it('issues a signed access token and a refresh token for the spec §5 partner flow', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'brandau');
    const response = await postToken(t.app, partnerLogin(login, password));
    expect(response.statusCode).toBe(200);
    expectNoStore(response);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(3600);
    expect(Buffer.from(body.refresh_token, 'base64url').length).toBeGreaterThanOrEqual(32);
    const header = decodeProtectedHeader(body.access_token);
    expect(header.alg).toBe('ES256');
    expect(header.typ).toBe('at+jwt');
    expect(typeof header.kid).toBe('string');
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({
      partner_code: 'PARTNERA',
      user_type_id: 4,
      customer_interface_id: 8,
      brand: 'brandau',
      client_id: 'API',
      aud: 'partner-api',
      iss: `${t.context.config.publicBaseUrl}/users/brandau`, // one issuer per brand (auth/metadata.ts)
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(typeof claims.jti).toBe('string');
    expect(Number(claims.sub)).toBeGreaterThan(0);
    expect(typeof claims.partner_id).toBe('number');
  });

  it('compares the login case-insensitively and issues distinct tokens each time', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'brandau');
    const a = await postToken(t.app, partnerLogin(login.toUpperCase(), password));
    const b = await postToken(t.app, partnerLogin(login, password));
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().access_token).not.toBe(b.json().access_token);
    expect(a.json().refresh_token).not.toBe(b.json().refresh_token);
  });

  it('answers every credential failure with the same 401 invalid_grant, never telling whether the user exists', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'brandnz');
    const failures = [
      partnerLogin(login, 'wrong password!'),
      partnerLogin('nobody@partners.test', password),
      { ...partnerLogin(login, password), userTypeId: '1' },
      (({ userTypeId: _omit, ...rest }) => rest)(partnerLogin(login, password)), // default userTypeId 1 ≠ partner (4)
    ];
    const bodies = [];
    for (const fields of failures) {
      const response = await postToken(t.app, fields, { brand: 'brandnz', remoteAddress: '10.0.0.1' });
      expect(response.statusCode).toBe(401);
      expectNoStore(response);
      bodies.push(response.json());
    }
    // The user exists only for brandnz: another brand's path fails the same way.
    const otherBrand = await postToken(t.app, partnerLogin(login, password), {
      brand: 'nomad',
      remoteAddress: '10.0.0.1',
    });
    expect(otherBrand.statusCode).toBe(401);
    bodies.push(otherBrand.json());
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(bodies[0].error).toBe('invalid_grant');
    expect(typeof bodies[0].error_description).toBe('string');
  });

  it('refuses a deactivated user with invalid_grant', async () => {
    const t = getApp();
    await ensureTestUser(t, 'directau', 'B');
    await createUser(t.context, {
      partnerCode: 'PARTNERB',
      login: 'leaver@partners.test',
      password: 'leaver-password-1',
      userTypeId: 4,
      brandCodes: ['directau'],
    });
    expect(
      (await postToken(t.app, partnerLogin('leaver@partners.test', 'leaver-password-1'), { brand: 'directau' }))
        .statusCode,
    ).toBe(200);
    await deactivate(t.context, 'LEAVER@partners.test');
    const response = await postToken(t.app, partnerLogin('leaver@partners.test', 'leaver-password-1'), {
      brand: 'directau',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('invalid_grant');
  });

  it('checks the client: unknown → 401 invalid_client; not registered for the interface → 401 unauthorized_client', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'brandau');
    const unknown = await postToken(t.app, { ...partnerLogin(login, password), client_id: 'Nope' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toBe('invalid_client');
    const wrongInterface = await postToken(t.app, { ...partnerLogin(login, password), customerInterfaceId: '1' });
    expect(wrongInterface.statusCode).toBe(401);
    expect(wrongInterface.json().error).toBe('unauthorized_client');
    const partnerWebsite = await postToken(t.app, { ...partnerLogin(login, password), customerInterfaceId: '5' });
    expect(partnerWebsite.statusCode).toBe(200);
    const publicApp = await postToken(t.app, {
      ...partnerLogin(login, password),
      client_id: 'ngPublicApp',
      customerInterfaceId: '8',
    });
    expect(publicApp.json().error).toBe('unauthorized_client');
  });
});

describe('token endpoint request rules', () => {
  const valid = {
    grant_type: 'password',
    client_id: 'API',
    username: 'u@x.test',
    password: 'p',
    customerInterfaceId: '8',
  };

  it.each([
    ['grant_type', { ...valid, grant_type: '' }],
    ['client_id', (({ client_id: _c, ...r }) => r)(valid)],
    ['username', (({ username: _u, ...r }) => r)(valid)],
    ['password', (({ password: _p, ...r }) => r)(valid)],
    ['customerInterfaceId', (({ customerInterfaceId: _i, ...r }) => r)(valid)],
    ['customerInterfaceId', { ...valid, customerInterfaceId: 'eight' }],
    ['userTypeId', { ...valid, userTypeId: '4.5' }],
    ['refresh_token', { grant_type: 'refresh_token', client_id: 'API' }],
  ])('a missing or invalid %s is 400 invalid_request', async (field, fields) => {
    const response = await postToken(getApp().app, fields);
    expect(response.statusCode).toBe(400);
    expectNoStore(response);
    expect(response.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining(field) });
  });

  it('another grant type is 400 unsupported_grant_type', async () => {
    const response = await postToken(getApp().app, { grant_type: 'client_credentials', client_id: 'API' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('unsupported_grant_type');
  });

  it('a repeated field is 400 invalid_request', async () => {
    const response = await getApp().app.inject({
      method: 'POST',
      url: '/users/brandau/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password&grant_type=refresh_token&client_id=API',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_request');
  });

  it.each([
    ['application/json', JSON.stringify(valid)],
    ['application/json', '{not json'],
    ['text/plain', 'grant_type=password'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('a %s body is 400 invalid_request in the token error shape', async (type, payload) => {
    const response = await getApp().app.inject({
      method: 'POST',
      url: '/users/brandau/token',
      headers: { 'content-type': type },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expectNoStore(response);
    expect(response.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });

  it('no body at all is 400 invalid_request', async () => {
    const response = await getApp().app.inject({ method: 'POST', url: '/users/brandau/token' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_request');
  });

  it('credentials in the query string are refused with 400 invalid_request', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'brandau');
    const response = await postToken(t.app, partnerLogin(login, password), {
      query: `?password=${encodeURIComponent(password)}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_request');
  });

  it('an unknown brand is 404 in the token error shape', async () => {
    const response = await postToken(getApp().app, valid, { brand: 'acme' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'invalid_request', error_description: "Brand 'acme' does not exist." });
  });

  it('never shows internal details: the error body has exactly error and error_description', async () => {
    const response = await postToken(getApp().app, { ...valid, password: 'x'.repeat(5000) });
    expect(Object.keys(response.json()).sort()).toEqual(['error', 'error_description']);
  });
});
