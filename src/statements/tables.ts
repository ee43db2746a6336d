import type { Generated } from 'kysely';

/** The statements area's table: payments a partner made against its account, per brand. */
export interface StatementsTables {
  account_payment_received: AccountPaymentReceivedTable;
}

export interface AccountPaymentReceivedTable {
  id: Generated<number>;
  partner_id: number;
  brand_code: string;
  /** The partner's or the bank's reference; unique per partner and brand (a second record replays). */
  reference: string;
  /** Minor units of `currency_code`, positive. */
  amount_minor: number;
  currency_code: string;
  /** The day it was received in the brand's time zone (YYYY-MM-DD): its statement month. */
  received_on: string;
  recorded_at: string;
}

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends StatementsTables {}
}
