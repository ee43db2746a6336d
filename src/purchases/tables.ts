import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * One purchase attempt of a quote: the record written before any gateway call, so that a crash
 * at any later point leaves something to finish or undo (docs/architecture.md, "Purchases").
 * Money is integer minor units; timestamps ISO 8601 UTC text; structured values JSON text.
 */
export interface PurchaseTable {
  id: Generated<number>;
  /** Random UUID; gateway idempotency keys derive from it (`purchase:<public_id>:authorise`). */
  public_id: string;
  quote_id: string;
  brand_code: string;
  partner_id: number;
  user_id: number;
  /** STARTED, CHALLENGE_PENDING, AUTHORISED, ISSUED, CAPTURED, DECLINED, FAILED, VOIDED. */
  state: string;
  amount_minor: number;
  currency: string;
  /** The tokenised card (never a card number): the same authorise call is replayed on recovery. */
  card_token: string;
  card_source: string | null;
  payment_id: string | null;
  /** CARD or ON_ACCOUNT (kernel/money/payment-methods.ts); CARD for rows written before on-account existed. */
  payment_method: Generated<string>;
  /** The contract's paymentResult of the latest gateway answer. */
  payment_result: string | null;
  decline_reason: string | null;
  three_ds_status: string | null;
  /** ThreeDsResponseInfo of a pending challenge, JSON text. */
  challenge_json: string | null;
  challenge_expires_at: string | null;
  /** The PolicyIssueRequest built when the purchase started (payment reference added at issue). */
  issue_request_json: string;
  policy_number: string | null;
  created_at: string;
  updated_at: string;
}

export interface PurchasesTables {
  purchase: PurchaseTable;
}

export type PurchaseRow = Selectable<PurchaseTable>;
export type NewPurchaseRow = Insertable<PurchaseTable>;
export type PurchaseRowUpdate = Updateable<PurchaseTable>;

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends PurchasesTables {}
}
