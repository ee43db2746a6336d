import { ResourceOwnerPassword } from 'simple-oauth2';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createPartner, createUser } from '../../src/auth/accounts.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { FAST_AUTH_ENV } from './support.js';

/** A real OAuth 2.0 client library from npm against a real listening server (spec §5). */
let database: TestDatabase;
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false', PORT: '0', ...FAST_AUTH_ENV }),
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

function client(clientId = 'API') {
  return new ResourceOwnerPassword({
    client: { id: clientId, secret: '' },
    auth: { tokenHost: server.url, tokenPath: '/users/brandnz/token' },
    options: { authorizationMethod: 'body', bodyFormat: 'form' },
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
