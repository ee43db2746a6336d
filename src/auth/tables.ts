import type { Generated, Insertable, Selectable } from 'kysely';

/** Identity tables. Timestamps are ISO 8601 UTC text; flags are integers 0/1. */
export interface AuthTables {
  partner: PartnerTable;
  app_user: AppUserTable;
  user_brand: UserBrandTable;
  oauth_client: OAuthClientTable;
  oauth_client_interface: OAuthClientInterfaceTable;
  signing_key: SigningKeyTable;
  refresh_token: RefreshTokenTable;
  login_failure: LoginFailureTable;
  partner_brand_code: PartnerBrandCodeTable;
}

/** A partner's own brand code, accepted by the token endpoint in place of `brand_code` (auth/brand-codes.ts). */
export interface PartnerBrandCodeTable {
  id: Generated<number>;
  /** Lower case, unique across partners. */
  code: string;
  partner_id: number;
  brand_code: string;
  created_at: string;
}

/** The spec's PartnerSummary: id, name, code, statusCode, isOnAccountPurchaseEnabled. */
export interface PartnerTable {
  id: Generated<number>;
  code: string;
  name: string;
  status_code: string;
  is_on_account_purchase_enabled: number;
  is_demo: number;
  created_at: Generated<string>;
}

export interface AppUserTable {
  id: Generated<number>;
  partner_id: number;
  /** The login as created; `login_key` is its lower-case form, unique. */
  login: string;
  login_key: string;
  password_hash: string;
  user_type_id: number;
  is_active: number;
  is_demo: number;
  created_at: Generated<string>;
  deactivated_at: string | null;
}

export interface UserBrandTable {
  user_id: number;
  brand_code: string;
}

/** Registered `client_id` values (public clients: no secret). */
export interface OAuthClientTable {
  client_id: string;
  name: string;
}

/** Which `customerInterfaceId` values a client may request tokens for. */
export interface OAuthClientInterfaceTable {
  client_id: string;
  customer_interface_id: number;
}

export interface SigningKeyTable {
  id: Generated<number>;
  kid: string;
  algorithm: string;
  public_key_pem: string;
  /** PKCS#8 private key sealed with AES-256-GCM under KEY_ENCRYPTION_SECRET (see keys.ts). */
  private_key_sealed: string;
  created_at: string;
  /** Set when a newer key replaces this one for signing. */
  retired_at: string | null;
  /** After this instant no token signed by the key can still be valid; null while active. */
  verify_until: string | null;
}

export interface RefreshTokenTable {
  id: Generated<number>;
  /** SHA-256 of the token, hex; the token itself is never stored. */
  token_hash: string;
  family_id: string;
  client_id: string;
  user_id: number;
  brand_code: string;
  customer_interface_id: number;
  user_type_id: number;
  created_at: string;
  /** Absolute end of the family (login time + REFRESH_TOKEN_TTL_SECONDS). */
  family_expires_at: string;
  /** This token's idle limit (issue time + REFRESH_TOKEN_IDLE_SECONDS). */
  idle_expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

/** Failed-login counters shared by every process: `user:<sha256 of the lower-cased login>` and `ip:<address>`. */
export interface LoginFailureTable {
  key: string;
  failures: number;
  window_started_at: string;
}

export type PartnerRow = Selectable<PartnerTable>;
export type AppUserRow = Selectable<AppUserTable>;
export type NewAppUserRow = Insertable<AppUserTable>;
export type SigningKeyRow = Selectable<SigningKeyTable>;
export type RefreshTokenRow = Selectable<RefreshTokenTable>;

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends AuthTables {}
}
