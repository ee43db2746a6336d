import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * A stored quote. `public_id` is the opaque id partners see (a random UUID); `id` is internal.
 * JSON columns hold the contract's input and the evaluation in minor units (portable rules).
 */
export interface QuoteTable {
  id: Generated<number>;
  public_id: string;
  brand_code: string;
  partner_id: number;
  partner_code: string;
  stage: string;
  quote_type: string;
  client_session_id: string | null;
  customer_user_id: number;
  /** The normalised QuoteInput (with each nested `validation`), JSON text. */
  input_json: string;
  /** `{ currencyCode, priceResults, prices }` in minor units, JSON text. */
  pricing_json: string;
  /** The quote's Validation, JSON text. */
  validation_json: string;
  client_info_json: string | null;
  /** Catalogue and rate version that priced the quote (see `hasConfigChanged`). */
  priced_version: string;
  has_config_changed: number;
  is_purchase_initiated: number;
  is_purchased: number;
  policy_number: string | null;
  /** Optimistic concurrency: every update checks and bumps it. */
  revision: number;
  evaluated_at: string;
  created_at: string;
  updated_at: string;
  created_by_user_id: number;
  created_by_username: string;
  updated_by_user_id: number;
  updated_by_username: string;
}

export interface QuotesTables {
  quote: QuoteTable;
}

export type QuoteRow = Selectable<QuoteTable>;
export type NewQuoteRow = Insertable<QuoteTable>;
export type QuoteRowUpdate = Updateable<QuoteTable>;

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends QuotesTables {}
}
