import type { Selectable } from 'kysely';

/**
 * One traveller's medical screening of a quote. `*_sealed` columns hold health or personal data
 * sealed with the key-encryption secret (screening/repository.ts); outcome and amounts are clear.
 */
export interface ScreeningTable {
  /** Public id (a random UUID v7). */
  id: string;
  /** The quote's public id. */
  quote_id: string;
  partner_id: number;
  traveller_guid: string;
  /** IN_PROGRESS or COMPLETED (STALE is read, not stored). */
  status: string;
  catalogue_version: string;
  trip_fingerprint: string;
  authorized_person_sealed: string | null;
  answers_sealed: string | null;
  conditions_sealed: string | null;
  reference_number: string | null;
  traveller_outcome: string | null;
  score: number | null;
  medical_premium_minor: number | null;
  excess_minor: number | null;
  signposting: number | null;
  currency_code: string;
  screening_date: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
  /** When the purge sweep next looks at this screening (screening/purge.ts). */
  purge_check_at: string | null;
  /** When the sealed columns were erased (retention over); null while they are held. */
  purged_at: string | null;
}

/** A hosted-page link of one traveller (screening/link-repository.ts): the value itself is never stored. */
export interface ScreeningLinkTable {
  id: string;
  /** sha256 (base64url) of the link's random value. */
  value_hash: string;
  quote_id: string;
  brand_code: string;
  partner_id: number;
  traveller_guid: string;
  /** The partner's page the traveller returns to. */
  return_url: string;
  /** `en` or `es`: the page's and the questions' language. */
  language: string;
  expires_at: string;
  /** Set when a newer link for the traveller replaced this one. */
  revoked_at: string | null;
  created_at: string;
}

export interface ScreeningTables {
  screening: ScreeningTable;
  screening_link: ScreeningLinkTable;
}

export type ScreeningRow = Selectable<ScreeningTable>;
export type ScreeningLinkRow = Selectable<ScreeningLinkTable>;

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends ScreeningTables {}
}
