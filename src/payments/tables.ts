import type { Generated } from 'kysely';

/** Tables of the payments area (portable column rules: see src/db/database.ts). */
export interface PaymentsTables {
  sandbox_payment: SandboxPaymentTable;
  sandbox_operation: SandboxOperationTable;
}

/** One payment at the sandbox gateway: what a card processor would hold on its side. */
export interface SandboxPaymentTable {
  id: Generated<number>;
  payment_id: string;
  reference: string;
  card_token: string;
  amount_minor: number;
  currency: string;
  /** `challenge`, `authorised`, `declined` or `voided`. */
  status: string;
  three_ds_status: string;
  decline_reason: string | null;
  /** Part of the hold charged, and part of that returned, in minor units. */
  captured_minor: number;
  refunded_minor: number;
  challenge_id: string | null;
  /** The cardholder's answer on the challenge page: `approved` or `declined`. */
  challenge_answer: string | null;
  challenge_expires_at: string | null;
  /** What the challenge page shows (AuthoriseRequest `checkout`); null when the call had none. */
  merchant_name: string | null;
  return_url: string | null;
  created_at: string;
  updated_at: string;
}

/** Every gateway call by its idempotency key, with the outcome it returned (replays return it). */
export interface SandboxOperationTable {
  id: Generated<number>;
  idempotency_key: string;
  operation: string;
  fingerprint: string;
  payment_id: string | null;
  outcome_json: string;
  created_at: string;
}

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends PaymentsTables {}
}
