import type { Generated, Selectable } from 'kysely';

/**
 * One amendment or cancellation of a policy, from its priced preview through its confirmation
 * to the policy transaction it writes (docs/architecture.md, "A policy change"). Written before
 * every gateway call, so a crash at any later point leaves something recovery finishes.
 * Money is integer minor units (signed: + the customer pays, − refunded); JSON text for structure.
 */
export interface PolicyChangeTable {
  id: Generated<number>;
  /** Random UUID: the `id` partners see; gateway keys derive from it. */
  public_id: string;
  /** AMENDMENT or CANCELLATION. */
  kind: string;
  policy_header_id: number;
  policy_number: string;
  brand_code: string;
  partner_id: number;
  /** The partner user who asked for the preview (and, later, confirmed it). */
  user_id: number;
  /** The policy's sequence number the preview was priced against: confirming is refused once it moved. */
  base_sequence_number: number;
  /** See model.ts `ChangeState`. */
  state: string;
  /** Confirmation attempts so far; gateway keys carry it (a declined card may be replaced by another). */
  attempt: number;
  expires_at: string;
  amount_minor: number;
  currency: string;
  /** The preview as answered (the change's view without its state). */
  preview_json: string;
  /** What the policy transaction will write (model.ts `PolicyTransaction`). */
  transaction_json: string;
  /** The amended QuoteInput (amendments): the next amendment starts from it. */
  input_json: string | null;
  card_token: string | null;
  payment_id: string | null;
  /** CARD or ON_ACCOUNT (kernel/money/payment-methods.ts); CARD for rows written before on-account existed. */
  payment_method: Generated<string>;
  payment_result: string | null;
  decline_reason: string | null;
  three_ds_status: string | null;
  challenge_json: string | null;
  challenge_expires_at: string | null;
  /** The refund's allocation to the policy's payments, with what each refunded (model.ts `RefundLine`). */
  refunds_json: string | null;
  /** Until when a refund is retried through gateway outages (set when it starts refunding). */
  refund_retry_until: string | null;
  /** The sequence number of the transaction it wrote, once applied. */
  sequence_number: number | null;
  created_at: string;
  updated_at: string;
}

export interface PolicyChangesTables {
  policy_change: PolicyChangeTable;
}

export type PolicyChangeRow = Selectable<PolicyChangeTable>;

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends PolicyChangesTables {}
}
