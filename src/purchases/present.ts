import { threeDsAnswerOf } from '../payments/three-ds.js';
import type { PaymentResult } from '../payments/gateway.js';
import { toContractQuote } from '../quotes/contract.js';
import { isBlocking } from '../kernel/notifications/problems.js';
import type { PurchaseRequest, PurchaseResponse } from './schemas.js';
import type { PurchaseResult } from './service.js';

/** Shows at most the last four characters of a card token. */
export function maskToken(token: string): string {
  return token.length <= 4 ? '****' : `****${token.slice(-4)}`;
}

/** The spec's purchase response (§4.2) for a purchase result; money in major units via the quote contract. */
export function toPurchaseResponse(result: PurchaseResult, body: PurchaseRequest): PurchaseResponse {
  const { quote, purchase, notifications } = result;
  const { partnerId: _p, partnerCode: _c, revision: _r, pricedVersion: _v, ...rest } = quote;
  const answer: PurchaseResponse = {
    quote: toContractQuote({ ...rest, isNew: false }),
    validation: { isValid: !notifications.some(isBlocking), errors: notifications },
  };
  // On account, no card was part of it.
  const card = purchase?.paymentMethod !== 'ON_ACCOUNT';
  const token = card ? (purchase?.cardToken ?? body.cardToken?.token) : undefined;
  const source = card ? (purchase?.cardSource ?? body.cardToken?.source) : undefined;
  if (token !== undefined || source !== undefined) {
    // The card token's own problems (those at `cardToken…`), as nested inputs of a quote carry theirs.
    const cardErrors = notifications.filter((n) => n.property?.startsWith('cardToken') === true);
    answer.cardToken = {
      ...(source !== undefined ? { source } : {}),
      ...(token ? { token: maskToken(token) } : {}),
      validation: { isValid: !cardErrors.some(isBlocking), errors: cardErrors },
    };
  }
  if (body.threeDSRequestInfo) answer.threeDSRequestInfo = body.threeDSRequestInfo;
  if (!purchase) return answer;
  answer.paymentMethod = purchase.paymentMethod;
  if (purchase.paymentId !== undefined) answer.paymentIds = purchase.paymentId;
  // Stored as text, but only ever written from the gateway's closed sets (payments/gateway.ts).
  if (purchase.paymentResult !== undefined) answer.paymentResult = purchase.paymentResult as PaymentResult;
  const threeDs = threeDsAnswerOf(purchase);
  if (threeDs) answer.threeDSResponseInfo = threeDs;
  return answer;
}
