import type { BrandCode } from '../kernel/brands.js';
import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import type { Minor } from '../kernel/money/units.js';
import type { PolicyActionType } from '../policies/schemas-detail.js';

/** A statement month is open until it has ended in the brand's time zone, then closed for good. */
export const STATEMENT_STATUSES = ['OPEN', 'CLOSED'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

/** One calendar month of a brand's time zone (`yyyy-mm`) and the instants it spans. */
export interface StatementMonth {
  readonly month: string;
  readonly status: StatementStatus;
  /** Its first instant (ISO 8601, UTC), inclusive. */
  readonly from: string;
  /** The first instant of the next month (ISO 8601, UTC), exclusive. */
  readonly to: string;
}

export interface TaxAmount {
  readonly name: string;
  readonly amountMinor: Minor;
}

/** A transaction's money or a sum of them, minor units; a refund's are negative. */
export interface MoneyParts {
  readonly premiumMinor: Minor;
  readonly discountMinor: Minor;
  /** Each tax by name, in name order. */
  readonly taxes: readonly TaxAmount[];
  readonly donationMinor: Minor;
  readonly feesMinor: Minor;
  /** premium − discount + taxes + donation + fees. */
  readonly totalMinor: Minor;
}

/** One policy transaction on a statement. */
export interface StatementLine extends MoneyParts {
  readonly policyNumber: string;
  readonly policyDetailNumber: string;
  readonly action: PolicyActionType;
  /** When it committed (ISO 8601, UTC): the month it falls in. */
  readonly committedAt: string;
  readonly paymentMethod: PaymentMethod;
}

export interface MethodTotals extends MoneyParts {
  readonly paymentMethod: PaymentMethod;
  readonly transactionCount: number;
}

/** A payment the partner made against its account (recorded by an operator). */
export interface PaymentReceived {
  readonly reference: string;
  readonly amountMinor: Minor;
  /** The day it was received, in the brand's time zone (YYYY-MM-DD). */
  readonly receivedOn: string;
  readonly recordedAt: string;
}

/** The on-account part of a month: what the partner owes. */
export interface OnAccountPart {
  readonly balanceBroughtForwardMinor: Minor;
  /** On-account transactions that charged (purchases, amendments costing more). */
  readonly chargedMinor: Minor;
  /** On-account transactions that refunded, as a positive amount. */
  readonly creditedMinor: Minor;
  readonly paymentsReceivedMinor: Minor;
  /** brought forward + charged − credited − payments received. */
  readonly dueMinor: Minor;
  readonly payments: readonly PaymentReceived[];
}

/** A partner's statement of one brand and month. */
export interface PartnerStatement {
  readonly brandCode: BrandCode;
  readonly partnerCode: string;
  readonly period: StatementMonth;
  readonly timeZone: string;
  readonly currencyCode: string;
  readonly lines: readonly StatementLine[];
  /** One per payment method, every method listed. */
  readonly totals: readonly MethodTotals[];
  readonly onAccount: OnAccountPart;
}
