import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import type { PolicyIssueRequest } from './issue-request.js';

/**
 * What an amendment or a cancellation writes to a policy: a new transaction (detail) with the
 * policy as it stands after it, and the money of the transaction itself. Built by the
 * policy-changes area; written by `writePolicyTransaction` (repository-transactions.ts).
 */

/** The policy as one transaction leaves it: what a detail records beside its money. */
export type PolicyVersion = Pick<
  PolicyIssueRequest,
  | 'homeAddress'
  | 'travellers'
  | 'dependents'
  | 'destinations'
  | 'departureDate'
  | 'coverEndDate'
  | 'options'
  | 'specifiedItems'
  | 'adventure'
  | 'excessMinor'
  | 'client'
>;

/** The money of one transaction, integer minor units, signed (+ the customer pays, − refunded). */
export interface TransactionAmounts {
  readonly premium: number;
  readonly discount: number;
  readonly taxes: readonly { readonly name: string; readonly amount: number }[];
  readonly donation: number;
  readonly fees: readonly { readonly name: string; readonly amount: number }[];
}

export type ChangeActionType = 'Amendment' | 'Cancellation';

export interface PolicyTransactionRequest {
  readonly policyHeaderId: number;
  readonly policyNumber: string;
  /** The sequence number the change was priced against; the write happens only if it is still the latest. */
  readonly baseSequenceNumber: number;
  readonly actionType: ChangeActionType;
  readonly version: PolicyVersion;
  readonly amounts: TransactionAmounts;
  readonly planId: number;
  /** The gateway's reference of the charge or the first refund, if money moved. */
  readonly paymentReference?: string;
  /** The policy's payment method: a change is paid or refunded the way the policy was bought. */
  readonly paymentMethod: PaymentMethod;
  readonly createdByUserId: number;
  readonly at: string;
}
