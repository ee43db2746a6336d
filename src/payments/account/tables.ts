import type { Generated } from 'kysely';

/** Tables of the on-account gateway (portable column rules: see src/db/database.ts). */
export interface PartnerAccountTables {
  partner_account_entry: PartnerAccountEntryTable;
}

/**
 * One movement on a partner's account at one brand, written by the call that made it and keyed by
 * that call's idempotency key (a replay finds the row and answers it again). A `hold` opens a
 * payment (`payment_id`, `acct_…`); its `charge` is owed by the partner, its `release` lets the
 * hold go, a `credit` gives back part of what was charged. Rows are never updated nor deleted.
 */
export interface PartnerAccountEntryTable {
  id: Generated<number>;
  idempotency_key: string;
  payment_id: string;
  partner_id: number;
  brand_code: string;
  /** `hold`, `charge`, `release` or `credit` (account/ledger.ts). */
  kind: string;
  /** Minor units of `currency`, always positive; the kind says which way it goes. */
  amount_minor: number;
  currency: string;
  /** The merchant's reference of the hold (a purchase or policy change id), copied to its later entries. */
  reference: string;
  created_at: string;
}

declare module '../../db/database.js' {
  /** This gateway's table, part of the one `Database` type (db/ imports no area). */
  interface Database extends PartnerAccountTables {}
}
