import { ResourceOwnerPassword } from 'simple-oauth2';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createPartner, createUser } from '../../src/auth/accounts.js';
import { freePort } from '../helpers/child-server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { FAST_AUTH_ENV } from './support.js';

/** A real OAuth 2.0 client library from npm against a real listening server (spec §5). */
let database: TestDatabase;
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  // A free port, so PUBLIC_BASE_URL (issuer and token endpoint in the metadata) names the real address.
  const port = String(await freePort());
  const config = {
    ...loadConfig({
      LOG_LEVEL: 'silent',
      DEMO_DATA: 'false',
      PORT: port,
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      ...FAST_AUTH_ENV,
    }),
    database: database.database,
  };
  server = await startServer(config, { db: database.db, logger: false });
  const context = { config, db: database.db, clock: () => new Date() };
  await createPartner(context, { code: 'LIBTEST', name: 'Library Test Partner' });
  await createUser(context, {
    partnerCode: 'LIBTEST',
    login: 'lib@partner.test',
    password: 'library-password-1',
    userTypeId: 4,
    brandCodes: ['brandnz'],
  });
});
afterAll(async () => {
  await server.close();
  await database.destroy();
});

function client(clientId = 'API', authorizationMethod: 'body' | 'header' = 'body') {
  return new ResourceOwnerPassword({
    client: { id: clientId, secret: '' },
    auth: { tokenHost: server.url, tokenPath: '/users/brandnz/token' },
    options: { authorizationMethod, bodyFormat: 'form' },
  });
}

// The spec's extra form fields ride along with the standard ones.
const partnerFields = {
  username: 'lib@partner.test',
  password: 'library-password-1',
  customerInterfaceId: '8',
  userTypeId: '4',
};

describe('simple-oauth2 against the running server', () => {
  it('obtains a token with the password grant and refreshes it', async () => {
    const first = await client().getToken(partnerFields);
    expect(first.token.token_type).toBe('Bearer');
    expect(first.token.expires_in).toBe(3600);
    expect(first.expired()).toBe(false);
    expect(decodeJwt(String(first.token.access_token))).toMatchObject({
      brand: 'brandnz',
      partner_code: 'LIBTEST',
      user_type_id: 4,
    });

    const renewed = await first.refresh();
    expect(renewed.token.access_token).not.toBe(first.token.access_token);
    expect(renewed.token.refresh_token).not.toBe(first.token.refresh_token);
    expect(renewed.expired()).toBe(false);

    // Replaying the first refresh token fails and revokes the renewed one too.
    await expect(first.refresh()).rejects.toMatchObject({
      output: { statusCode: 401 },
      data: { payload: { error: 'invalid_grant' } },
    });
    await expect(renewed.refresh()).rejects.toMatchObject({ data: { payload: { error: 'invalid_grant' } } });
  });

  it('surfaces the spec’s error body for bad credentials', async () => {
    await expect(client().getToken({ ...partnerFields, password: 'wrong-password' })).rejects.toMatchObject({
      output: { statusCode: 401 },
      data: { payload: { error: 'invalid_grant', error_description: expect.any(String) } },
    });
  });
});

/** RFC 8414 §3: the metadata of issuer `https://h/p` is at `https://h/.well-known/oauth-authorization-server/p`. */
function metadataUrl(issuer: string): string {
  const url = new URL(issuer);
  return `${url.origin}/.well-known/oauth-authorization-server${url.pathname.replace(/\/$/, '')}`;
}

describe('discovery (RFC 8414) and client_secret_basic', () => {
  const issuer = () => `${server.url}/users/brandnz`;

  it('publishes metadata whose issuer is the tokens’ iss and whose token endpoint works with Basic auth', async () => {
    const response = await fetch(metadataUrl(issuer()));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata).toEqual({
      issuer: issuer(),
      token_endpoint: `${issuer()}/token`,
      grant_types_supported: ['password', 'refresh_token'],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      service_documentation: `${server.url}/docs`,
      partner_brand_codes_supported: true,
    });

    // A client configured from the discovered endpoint, with the library's default (Basic) client auth.
    const endpoint = new URL(String(metadata.token_endpoint));
    const discovered = new ResourceOwnerPassword({
      client: { id: 'API', secret: '' },
      auth: { tokenHost: endpoint.origin, tokenPath: endpoint.pathname },
    });
    const first = await discovered.getToken(partnerFields);
    expect(decodeJwt(String(first.token.access_token)).iss).toBe(metadata.issuer);
    const renewed = await first.refresh();
    expect(decodeJwt(String(renewed.token.access_token))).toMatchObject({ iss: issuer(), client_id: 'API' });
  });

  it('an unknown brand has no metadata (404 in the API error body)', async () => {
    const response = await fetch(metadataUrl(`${server.url}/users/acme`));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ validation: { errors: [{ code: 'UNKNOWN_BRAND' }] } });
  });

  it('an unknown client in Basic is 401 invalid_client', async () => {
    await expect(client('Nope', 'header').getToken(partnerFields)).rejects.toMatchObject({
      output: { statusCode: 401 },
      data: { payload: { error: 'invalid_client' } },
    });
  });

  const post = (headers: Record<string, string>, form: Record<string, string>) =>
    fetch(`${issuer()}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ grant_type: 'password', ...partnerFields, ...form }),
    });
  const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });

  it('the same client id in Basic and in the form is accepted', async () => {
    expect((await post(basic('API:'), { client_id: 'API' })).status).toBe(200);
    expect((await post({}, { client_id: 'API', client_secret: '' })).status).toBe(200); // client_secret_post, no secret
  });

  it.each([
    ['different client ids in Basic and the form', basic('API:'), { client_id: 'mobileApp' }, 400, 'invalid_request'],
    ['a Basic password', basic('API:secret'), {}, 401, 'invalid_client'],
    ['a client_secret in the form', {}, { client_id: 'API', client_secret: 'secret' }, 401, 'invalid_client'],
    ['a Basic header without a colon', basic('API'), {}, 401, 'invalid_client'],
    ['a NUL in the Basic client id', basic('A%00PI:'), {}, 401, 'invalid_client'],
    ['an unregistered client in Basic', basic('nobody:'), {}, 401, 'invalid_client'],
    ['a Bearer header', { authorization: 'Bearer abc' }, {}, 400, 'invalid_request'],
    ['no client at all', {}, {}, 400, 'invalid_request'],
  ])('%s is %i %s', async (_case, headers, form, status, error) => {
    const response = await post(headers, form);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ error });
    if (status === 401 && 'authorization' in headers) {
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="partner-api"');
    }
  });
});
