import type { Validation } from '../kernel/notifications/notification.js';
import type { ClientInfo, QuoteAudit, QuoteInput, QuotePriceResult, QuotePriceSummary, QuoteStage } from './schemas.js';

/** The prices of an evaluation, amounts in integer minor units of `currencyCode`. */
export interface PricingRecord {
  currencyCode?: string;
  priceResults: QuotePriceResult[];
  prices: QuotePriceSummary[];
}

/** The contract's QuoteAudit, every field known once stored. */
export type QuoteAuditRecord = Required<QuoteAudit>;

/** What an evaluation produces and an update writes. */
export interface QuoteRecord {
  stage: QuoteStage;
  clientSessionId?: string;
  customerUserId: number;
  input: QuoteInput;
  pricing: PricingRecord;
  validation: Validation;
  clientInfo?: ClientInfo;
  pricedVersion: string;
  hasConfigChanged: boolean;
  evaluatedAt: string;
  audit: QuoteAuditRecord;
}

/** A quote as stored, in domain terms. */
export interface StoredQuote extends QuoteRecord {
  id: string;
  brandCode: string;
  partnerId: number;
  partnerCode: string;
  isPurchaseInitiated: boolean;
  isPurchased: boolean;
  policyNumber?: string;
  revision: number;
}
