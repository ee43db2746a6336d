import type { Generated } from 'kysely';

/** The Idempotency-Key area's table (portable column rules: see src/db/database.ts). */
export interface IdempotencyTables {
  idempotency_key: IdempotencyKeyTable;
}

/** Idempotency-Key records of partner requests (Stripe semantics; docs/api-contract.md). */
export interface IdempotencyKeyTable {
  id: Generated<number>;
  /** Who owns the key (the partner); the same key of another partner is another record. */
  scope: string;
  idempotency_key: string;
  fingerprint: string;
  /**
   * `in_flight` while a request with the key runs, `completed` once its response is stored,
   * `released` when it ended without a kept answer (a 5xx, a 409…): a retry may run at once.
   */
  state: string;
  response_status: number | null;
  response_content_type: string | null;
  response_body: string | null;
  /**
   * The record the key's request started or continued (`purchase:<id>`, `policy-change:<id>:<attempt>`),
   * written in the commit that started or held it: a retry answers from it, whatever failed since.
   */
  subject: string | null;
  /** Random token of the current claim: only its holder may complete or release the key. */
  lock_token: string;
  locked_at: string;
  created_at: string;
  expires_at: string;
}

declare module '../../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends IdempotencyTables {}
}
