import type { FastifyInstance } from 'fastify';
import type { TestApp } from './app.js';
import type { BrandCode } from '../../src/kernel/brands.js';
import { createPartner, createUser, findPartner, userExists } from '../../src/auth/accounts.js';

/** Test partners: A and B, each with one partner user (userTypeId 4) per brand. */
export const TEST_PARTNERS = { A: 'PARTNERA', B: 'PARTNERB' } as const;
export const testLogin = (brandCode: BrandCode, partner: 'A' | 'B') =>
  `test-${partner.toLowerCase()}.${brandCode}@partners.test`;
export const testPassword = (brandCode: BrandCode, partner: 'A' | 'B') => `Test-${partner}-${brandCode}-password`;

const tokens = new WeakMap<FastifyInstance, Map<string, string>>();

/** Makes sure partner A or B and its user for `brandCode` exist in the test app's database. */
export async function ensureTestUser(
  t: TestApp,
  brandCode: BrandCode,
  partner: 'A' | 'B' = 'A',
): Promise<{ login: string; password: string }> {
  const partnerCode = TEST_PARTNERS[partner];
  if (!(await findPartner(t.context, partnerCode)))
    await createPartner(t.context, { code: partnerCode, name: `Test Partner ${partner}` });
  const login = testLogin(brandCode, partner);
  const password = testPassword(brandCode, partner);
  if (!(await userExists(t.context, login))) {
    await createUser(t.context, { partnerCode, login, password, userTypeId: 4, brandCodes: [brandCode] });
  }
  return { login, password };
}

/**
 * Headers that authenticate a request as partner A's (or B's) user of `brandCode` in the given
 * test app: the user is created on first use and the token comes from the real token endpoint
 * (spec §5 partner flow), cached per app, brand and partner.
 */
export async function bearerFor(
  t: TestApp,
  brandCode: BrandCode,
  partner: 'A' | 'B' = 'A',
): Promise<Record<string, string>> {
  let cache = tokens.get(t.app);
  if (!cache) tokens.set(t.app, (cache = new Map()));
  const key = `${brandCode}/${partner}`;
  let token = cache.get(key);
  if (!token) {
    const { login, password } = await ensureTestUser(t, brandCode, partner);
    const response = await t.app.inject({
      method: 'POST',
      url: `${t.context.config.basePath}/users/${brandCode}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'password',
        client_id: 'API',
        username: login,
        password,
        customerInterfaceId: '8',
        userTypeId: '4',
      }).toString(),
    });
    if (response.statusCode !== 200)
      throw new Error(`bearerFor: token endpoint answered ${response.statusCode} ${response.body}`);
    token = response.json<{ access_token: string }>().access_token;
    cache.set(key, token);
  }
  return { authorization: `Bearer ${token}` };
}
