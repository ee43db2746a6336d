import type { Executor } from '../db/database.js';

/** Partners, users and registered clients. Row types stay in this file and tables.ts. */

export interface PartnerRecord {
  id: number;
  code: string;
  name: string;
  statusCode: string;
  isOnAccountPurchaseEnabled: boolean;
}

export interface UserRecord {
  id: number;
  partnerId: number;
  partnerCode: string;
  partnerStatusCode: string;
  login: string;
  passwordHash: string;
  userTypeId: number;
  isActive: boolean;
  brandCodes: string[];
}

export async function insertPartner(
  db: Executor,
  partner: { code: string; name: string; isOnAccountPurchaseEnabled: boolean; isDemo?: boolean },
): Promise<number> {
  const row = await db
    .insertInto('partner')
    .values({
      code: partner.code,
      name: partner.name,
      status_code: 'ACTIVE',
      is_on_account_purchase_enabled: partner.isOnAccountPurchaseEnabled ? 1 : 0,
      is_demo: partner.isDemo ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findPartnerByCode(db: Executor, code: string): Promise<PartnerRecord | undefined> {
  return findPartnerWhere(db, 'code', code);
}

/** A partner by its id (operators' pages name the partner of a policy). */
export function findPartnerById(db: Executor, id: number): Promise<PartnerRecord | undefined> {
  return findPartnerWhere(db, 'id', id);
}

async function findPartnerWhere(
  db: Executor,
  column: 'id' | 'code',
  value: number | string,
): Promise<PartnerRecord | undefined> {
  const row = await db
    .selectFrom('partner')
    .select(['id', 'code', 'name', 'status_code', 'is_on_account_purchase_enabled'])
    .where(column, '=', value as never)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      code: row.code,
      name: row.name,
      statusCode: row.status_code,
      isOnAccountPurchaseEnabled: row.is_on_account_purchase_enabled === 1,
    }
  );
}

/** Whether the partner may buy on account now (read per request: an operator may switch it at any time). */
export async function isOnAccountPurchaseEnabled(db: Executor, partnerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('partner')
    .select('is_on_account_purchase_enabled')
    .where('id', '=', partnerId)
    .executeTakeFirst();
  return row?.is_on_account_purchase_enabled === 1;
}

/** Switches the partner's on-account purchases; false when no partner has the code. */
export async function setOnAccountPurchase(db: Executor, code: string, enabled: boolean): Promise<boolean> {
  const result = await db
    .updateTable('partner')
    .set({ is_on_account_purchase_enabled: enabled ? 1 : 0 })
    .where('code', '=', code)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertUser(
  db: Executor,
  user: {
    partnerId: number;
    login: string;
    passwordHash: string;
    userTypeId: number;
    brandCodes: readonly string[];
    isDemo?: boolean;
  },
): Promise<number> {
  const row = await db
    .insertInto('app_user')
    .values({
      partner_id: user.partnerId,
      login: user.login,
      login_key: user.login.toLowerCase(),
      password_hash: user.passwordHash,
      user_type_id: user.userTypeId,
      is_active: 1,
      is_demo: user.isDemo ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (user.brandCodes.length > 0) {
    await db
      .insertInto('user_brand')
      .values(user.brandCodes.map((brand) => ({ user_id: row.id, brand_code: brand })))
      .execute();
  }
  return row.id;
}

function userQuery(db: Executor) {
  return db
    .selectFrom('app_user')
    .innerJoin('partner', 'partner.id', 'app_user.partner_id')
    .select([
      'app_user.id',
      'app_user.partner_id',
      'partner.code as partner_code',
      'partner.status_code as partner_status_code',
      'app_user.login',
      'app_user.password_hash',
      'app_user.user_type_id',
      'app_user.is_active',
    ]);
}

/** Case-insensitive: the login is looked up by its lower-case key. */
export async function findUserByLogin(db: Executor, login: string): Promise<UserRecord | undefined> {
  const row = await userQuery(db).where('app_user.login_key', '=', login.toLowerCase()).executeTakeFirst();
  if (!row) return undefined;
  const brands = await db.selectFrom('user_brand').select('brand_code').where('user_id', '=', row.id).execute();
  return {
    id: row.id,
    partnerId: row.partner_id,
    partnerCode: row.partner_code,
    partnerStatusCode: row.partner_status_code,
    login: row.login,
    passwordHash: row.password_hash,
    userTypeId: row.user_type_id,
    isActive: row.is_active === 1,
    brandCodes: brands.map((b) => b.brand_code).sort(),
  };
}

/** Whether the user may still act: the user is active and the partner's status is ACTIVE. */
export async function isUserInGoodStanding(db: Executor, userId: number): Promise<boolean> {
  const row = await userQuery(db).where('app_user.id', '=', userId).executeTakeFirst();
  return row !== undefined && row.is_active === 1 && row.partner_status_code === 'ACTIVE';
}

export async function findUserPartner(
  db: Executor,
  userId: number,
): Promise<{ id: number; code: string; login: string } | undefined> {
  return db
    .selectFrom('app_user')
    .innerJoin('partner', 'partner.id', 'app_user.partner_id')
    .select(['partner.id as id', 'partner.code as code', 'app_user.login as login'])
    .where('app_user.id', '=', userId)
    .executeTakeFirst();
}

export async function countDemoUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('app_user')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('is_demo', '=', 1)
    .where('is_active', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The interfaces a registered client may use; undefined when the client is unknown. */
export async function findClientInterfaces(db: Executor, clientId: string): Promise<number[] | undefined> {
  const client = await db
    .selectFrom('oauth_client')
    .select('client_id')
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!client) return undefined;
  const rows = await db
    .selectFrom('oauth_client_interface')
    .select('customer_interface_id')
    .where('client_id', '=', clientId)
    .execute();
  return rows.map((r) => r.customer_interface_id);
}
