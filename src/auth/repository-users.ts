import type { Executor } from '../db/database.js';
import type { After } from '../kernel/keyset.js';
import type { PartnerRecord } from './repository.js';

/**
 * Partners and their users as operators list and manage them (the console's work queues, the
 * `user deactivate` / `reactivate` commands). Statements over the `partner`, `app_user` and
 * `refresh_token` tables, whose owner is this folder's repository.ts; never a password hash.
 */

/** A partner user as an operator sees it. */
export interface PartnerUser {
  readonly id: number;
  readonly partnerId: number;
  readonly login: string;
  readonly userTypeId: number;
  readonly active: boolean;
  readonly deactivatedAt?: string;
  readonly createdAt: string;
  /** When the user last got a token (the newest refresh token issued, by password or refresh). */
  readonly lastTokenAt?: string;
}

/** A partner with how many users it has, and how many of them are disabled. */
export interface PartnerListing extends PartnerRecord {
  readonly users: number;
  readonly disabledUsers: number;
}

/** Partners by code, `limit` after the code `after.id`. */
export async function partnersPage(
  db: Executor,
  page: { readonly limit: number; readonly after?: After },
): Promise<PartnerListing[]> {
  let query = db
    .selectFrom('partner')
    .select((eb) => [
      'partner.id',
      'partner.code',
      'partner.name',
      'partner.status_code',
      'partner.is_on_account_purchase_enabled',
      eb
        .selectFrom('app_user')
        .select(eb.fn.countAll<number | string>().as('n'))
        .whereRef('app_user.partner_id', '=', 'partner.id')
        .as('users'),
      eb
        .selectFrom('app_user')
        .select(eb.fn.countAll<number | string>().as('n'))
        .whereRef('app_user.partner_id', '=', 'partner.id')
        .where('app_user.is_active', '=', 0)
        .as('disabled_users'),
    ]);
  if (page.after) query = query.where('partner.code', '>', page.after.id);
  const rows = await query.orderBy('partner.code').limit(page.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    name: row.name,
    statusCode: row.status_code,
    isOnAccountPurchaseEnabled: row.is_on_account_purchase_enabled === 1,
    users: Number(row.users ?? 0),
    disabledUsers: Number(row.disabled_users ?? 0),
  }));
}

export async function countPartners(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('partner')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The partners of these ids (absent ids are not in the map). */
export async function partnersByIds(db: Executor, ids: readonly number[]): Promise<Map<number, PartnerRecord>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('partner')
    .select(['id', 'code', 'name', 'status_code', 'is_on_account_purchase_enabled'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        code: row.code,
        name: row.name,
        statusCode: row.status_code,
        isOnAccountPurchaseEnabled: row.is_on_account_purchase_enabled === 1,
      },
    ]),
  );
}

export async function findPartnerById(db: Executor, id: number): Promise<PartnerRecord | undefined> {
  return (await partnersByIds(db, [id])).get(id);
}

function usersQuery(db: Executor) {
  return db.selectFrom('app_user').select((eb) => [
    'app_user.id',
    'app_user.partner_id',
    'app_user.login',
    'app_user.login_key',
    'app_user.user_type_id',
    'app_user.is_active',
    'app_user.deactivated_at',
    'app_user.created_at',
    eb
      .selectFrom('refresh_token')
      .select((inner) => inner.fn.max('refresh_token.created_at').as('at'))
      .whereRef('refresh_token.user_id', '=', 'app_user.id')
      .as('last_token_at'),
  ]);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof usersQuery>['executeTakeFirstOrThrow']>>;

const userOf = (row: UserRow): PartnerUser => ({
  id: row.id,
  partnerId: row.partner_id,
  login: row.login,
  userTypeId: row.user_type_id,
  active: row.is_active === 1,
  ...(row.deactivated_at === null ? {} : { deactivatedAt: row.deactivated_at }),
  createdAt: row.created_at,
  ...(row.last_token_at === null ? {} : { lastTokenAt: row.last_token_at }),
});

/** A partner's users by login (case-insensitive order), `limit` after the login key `after.id`. */
export async function usersOfPartner(
  db: Executor,
  partnerId: number,
  page: { readonly limit: number; readonly after?: After },
): Promise<PartnerUser[]> {
  let query = usersQuery(db).where('app_user.partner_id', '=', partnerId);
  if (page.after) query = query.where('app_user.login_key', '>', page.after.id);
  const rows = await query.orderBy('app_user.login_key').limit(page.limit).execute();
  return rows.map(userOf);
}

export async function findPartnerUser(db: Executor, userId: number): Promise<PartnerUser | undefined> {
  const row = await usersQuery(db).where('app_user.id', '=', userId).executeTakeFirst();
  return row && userOf(row);
}

export async function findUserIdByLogin(db: Executor, login: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('app_user')
    .select('id')
    .where('login_key', '=', login.toLowerCase())
    .executeTakeFirst();
  return row?.id;
}

/** Compare and set of the user's standing: false when the user is unknown or already so. */
export async function setUserActive(db: Executor, userId: number, active: boolean, at: string): Promise<boolean> {
  const result = await db
    .updateTable('app_user')
    .set(active ? { is_active: 1, deactivated_at: null } : { is_active: 0, deactivated_at: at })
    .where('id', '=', userId)
    .where('is_active', '=', active ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes every refresh token of the user not yet revoked; how many. */
export async function revokeUserRefreshTokens(db: Executor, userId: number, at: string): Promise<number> {
  const result = await db
    .updateTable('refresh_token')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
