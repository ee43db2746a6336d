import { BRAND_CODES } from '../kernel/brands.js';
import type { AppContext } from '../context.js';
import { createPartner, createUser, findPartner, userExists } from './accounts.js';
import { ensureSigningKey } from './keys.js';
import { purgeExpiredRefreshTokens } from './refresh-tokens.js';
import { countDemoUsers } from './repository.js';

/** Demo partners and their logins (documented in the README); staging only. */
export const DEMO_PARTNERS = [
  { code: 'DEMOA', name: 'Demo Partner A' },
  { code: 'DEMOB', name: 'Demo Partner B' },
] as const;

export const demoLogin = (partnerCode: string, brand: string) => `${partnerCode.toLowerCase()}.${brand}@demo.example`;
export const demoPassword = (partnerCode: string, brand: string) => `${partnerCode}-${brand}-demo-pass`;

export class DemoUsersInProduction extends Error {
  constructor(count: number) {
    super(
      `The database holds ${count} demo users with published passwords; production refuses to start. Deactivate or remove them first.`,
    );
    this.name = 'DemoUsersInProduction';
  }
}

/** Creates unless present; another process starting at the same moment may win the insert. */
async function ensure(exists: () => Promise<boolean>, create: () => Promise<unknown>): Promise<void> {
  if (await exists()) return;
  try {
    await create();
  } catch (error) {
    if (!(await exists())) throw error;
  }
}

/** Idempotent: creates what is missing, leaves what exists. */
export async function seedDemoIdentities(context: AppContext): Promise<void> {
  for (const partner of DEMO_PARTNERS) {
    await ensure(
      async () => (await findPartner(context, partner.code)) !== undefined,
      () => createPartner(context, { ...partner, isOnAccountPurchaseEnabled: partner.code === 'DEMOA', isDemo: true }),
    );
    for (const brand of BRAND_CODES) {
      const login = demoLogin(partner.code, brand);
      await ensure(
        () => userExists(context, login),
        () =>
          createUser(context, {
            partnerCode: partner.code,
            login,
            password: demoPassword(partner.code, brand),
            userTypeId: 4,
            brandCodes: [brand],
            isDemo: true,
          }),
      );
    }
  }
}

/** Start-up work of the identity area: a signing key, demo data in staging, no demo users in production. */
export async function prepareIdentity(context: AppContext): Promise<void> {
  await ensureSigningKey(context);
  await purgeExpiredRefreshTokens(context);
  if (context.config.env === 'production') {
    const demoUsers = await countDemoUsers(context.db);
    if (demoUsers > 0) throw new DemoUsersInProduction(demoUsers);
  }
  if (context.config.demoData) await seedDemoIdentities(context);
}
