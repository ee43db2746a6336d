import { describe, expect, it } from 'vitest';
import { BRAND_CODES } from '../../src/kernel/brands.js';
import {
  DEMO_PARTNERS,
  DemoUsersInProduction,
  demoLogin,
  demoPassword,
  prepareIdentity,
} from '../../src/auth/setup.js';
import { deactivate } from '../../src/auth/accounts.js';
import { prepareDatabase } from '../../src/server.js';
import { useTestApp } from '../helpers/app.js';
import { FAST_AUTH_ENV, partnerLogin, postToken } from './support.js';

const getApp = useTestApp({ env: { ...FAST_AUTH_ENV, DEMO_DATA: 'true' } });

describe('demo identities (staging)', () => {
  it('seeds two partners with one partner user per brand, idempotently', async () => {
    const t = getApp();
    await prepareDatabase(t.context); // a second start changes nothing
    const partners = await t.context.db.selectFrom('partner').select(['code', 'is_demo']).orderBy('code').execute();
    expect(partners).toEqual(DEMO_PARTNERS.map((p) => ({ code: p.code, is_demo: 1 })));
    const users = await t.context.db.selectFrom('app_user').select(['login', 'user_type_id']).execute();
    expect(users).toHaveLength(8);
    expect(users.every((u) => u.user_type_id === 4)).toBe(true);
  });

  it('every documented demo login gets a token for its own brand only', async () => {
    const t = getApp();
    for (const partner of DEMO_PARTNERS) {
      for (const brand of BRAND_CODES) {
        const response = await postToken(
          t.app,
          partnerLogin(demoLogin(partner.code, brand), demoPassword(partner.code, brand)),
          { brand },
        );
        expect(response.statusCode).toBe(200);
      }
    }
    const cross = await postToken(
      t.app,
      partnerLogin(demoLogin('DEMOA', 'brandau'), demoPassword('DEMOA', 'brandau')),
      { brand: 'nomad' },
    );
    expect(cross.statusCode).toBe(401);
  });

  it('production refuses to start while active demo users exist', async () => {
    const t = getApp();
    const production = { ...t.context, config: { ...t.context.config, env: 'production' as const, demoData: false } };
    await expect(prepareIdentity(production)).rejects.toBeInstanceOf(DemoUsersInProduction);
    for (const partner of DEMO_PARTNERS)
      for (const brand of BRAND_CODES) await deactivate(t.context, demoLogin(partner.code, brand));
    await expect(prepareIdentity(production)).resolves.toBeUndefined();
  });
});
