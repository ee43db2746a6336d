import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import type { CounterKey, NumberTemplate } from './policy-number.js';
import type { BrandCode } from '../kernel/brands.js';
import type { HomeAddress, InsuredPerson, PlanSnapshot, PolicyIssueRequest } from './issue-request.js';
import type { PolicyActionType } from './schemas-detail.js';

/** Policies as the service sees them: read back from storage, before they become contract JSON. */

export const POLICY_STATUS = { Active: 1, Cancelled: 2 } as const;
/**
 * A transaction's `detailStatusId`: the policy's own statuses, and `Authorised` for a purchase an
 * underwriter approved after a referral (docs/api-contract.md, "Referrals").
 */
export const DETAIL_STATUS = { ...POLICY_STATUS, Authorised: 3 } as const;
export const ACTION_TYPE_IDS: Record<PolicyActionType, number> = { Purchase: 1, Amendment: 2, Cancellation: 3 };
/** Kinds of rows in policy_financial_value; `transactionTypeId` in the contract. */
export const TRANSACTION_TYPE = { Premium: 1, Discount: 2, Tax: 3, Donation: 4, Fee: 5 } as const;

export interface AuditRecord {
  readonly createdAt: string;
  readonly createdByUserId: number;
  readonly updatedAt: string;
  readonly updatedByUserId: number;
}

export type PersonRecord = InsuredPerson & { readonly id: number; readonly displayOrder: number };

export interface OptionRecord {
  readonly id: number;
  readonly planId: number;
  readonly optionTypeId: number;
  readonly name: string;
  readonly description?: string;
  readonly displayOrder: number;
}

export interface FinancialRecord {
  readonly transactionTypeId: number;
  readonly name?: string;
  readonly amountMinor: number;
  readonly optionTypeId?: number;
  readonly travellerGuid?: string;
  readonly dependentGuid?: string;
}

export interface DetailRecord {
  readonly id: number;
  readonly sequenceNumber: number;
  readonly policyDetailNumber: string;
  readonly actionType: PolicyActionType;
  readonly statusId: number;
  readonly status: string;
  readonly client: PolicyIssueRequest['client'];
  readonly departureDate: string;
  readonly coverEndDate: string;
  readonly address: HomeAddress;
  readonly specifiedItems: PolicyIssueRequest['specifiedItems'];
  readonly adventure?: { readonly level?: string; readonly activities: string[] };
  readonly paymentReference?: string;
  /** How this transaction's money moved: a change follows the policy's purchase (kernel/money/payment-methods.ts). */
  readonly paymentMethod: PaymentMethod;
  readonly audit: AuditRecord;
  readonly travellers: PersonRecord[];
  readonly dependents: PersonRecord[];
  readonly options: OptionRecord[];
  readonly financials: FinancialRecord[];
}

export interface PolicyRecord {
  readonly id: number;
  readonly policyNumber: string;
  readonly brandCode: BrandCode;
  readonly partnerId: number;
  readonly customerUserId: number;
  readonly quoteId: string;
  readonly plan: Omit<PlanSnapshot, 'currency'>;
  readonly currency: PlanSnapshot['currency'];
  readonly statusId: number;
  readonly status: string;
  readonly sequenceNumber: number;
  readonly presentationTimeZoneCode: string;
  readonly destinations: PolicyIssueRequest['destinations'];
  readonly referencePolicyWordingId?: number;
  readonly regulatoryWordingTranslationName?: string;
  readonly binderId?: number;
  readonly excessMinor: number;
  readonly externalMemberships: PolicyIssueRequest['externalMemberships'];
  readonly policyDocumentAccessGuid: string;
  readonly audit: AuditRecord;
  /** Oldest first; at least one (the purchase). */
  readonly details: DetailRecord[];
}

/** What issuance decided beside the request: the numbers, the access key and the instant. */
export interface IssueDecision {
  readonly policyNumber: string;
  readonly policyDetailNumber: string;
  readonly policyDocumentAccessGuid: string;
  readonly issuedAt: string;
}

/** What numbering and writing a purchased policy needs beyond the request. */
export interface NumberedIssue {
  readonly counter: CounterKey;
  readonly number: NumberTemplate;
  /** What follows the policy number in detail #1's number. */
  readonly detailSuffix: string;
  readonly policyDocumentAccessGuid: string;
  readonly issuedAt: string;
}
