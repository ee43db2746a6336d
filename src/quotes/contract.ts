import { minorDigits, pricesToMajor, toMajor } from '../kernel/money/units.js';
import type { Quote, QuoteReferral } from './schemas.js';
import type { QuoteReferralView } from './ports.js';
import type { QuoteView } from './service.js';

/** The contract's Quote for a quote view: prices become major-unit doubles here, nowhere else. */
export function toContractQuote(quote: QuoteView): Quote {
  const digits = minorDigits(quote.pricing.currencyCode ?? 'AUD');
  const answer: Quote = {
    isNew: quote.isNew,
    isPurchased: quote.isPurchased,
    hasConfigChanged: quote.hasConfigChanged,
    isPurchaseInitiated: quote.isPurchaseInitiated,
    stage: quote.stage,
    evaluatedAt: quote.evaluatedAt,
    input: quote.input,
    priceResults: pricesToMajor(quote.pricing.priceResults, digits),
    prices: pricesToMajor(quote.pricing.prices, digits),
    customerUserId: quote.customerUserId,
    brandCode: quote.brandCode,
    validation: quote.validation,
  };
  if (quote.id !== undefined) answer.id = quote.id;
  if (quote.clientSessionId !== undefined) answer.clientSessionId = quote.clientSessionId;
  if (quote.policyNumber !== undefined) answer.policyNumber = quote.policyNumber;
  if (quote.clientInfo !== undefined) answer.clientInfo = quote.clientInfo;
  if (quote.audit !== undefined) answer.audit = quote.audit;
  if (quote.referral !== undefined) answer.referral = toContractReferral(quote.referral, digits);
  return answer;
}

/** The contract's QuoteReferral (our extension): the extra excess in major units. */
export function toContractReferral(view: QuoteReferralView, digits: number): QuoteReferral {
  const { extraExcessMinor, reasonCodes, ...referral } = view;
  return Object.assign(
    { ...referral, reasonCodes: [...reasonCodes] },
    extraExcessMinor === undefined ? {} : { extraExcess: toMajor(extraExcessMinor, digits) },
  );
}
