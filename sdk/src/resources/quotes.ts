import type { RequestOptions } from '../transport.js';
import type { Body } from '../types.js';
import type { Api } from './api.js';

/** Quotes, their referral and their travellers' medical screening; the purchase. */
export function quotesOf(api: Api) {
  return {
    create: (body: Body<'createQuote'>, o?: RequestOptions) => api.json('createQuote', {}, { body }, o),
    update: (quoteId: string, body: Body<'updateQuote'>, o?: RequestOptions) =>
      api.json('updateQuote', { quoteId }, { body }, o),
    get: (quoteId: string, o?: RequestOptions) => api.json('getQuote', { quoteId }, {}, o),
    /** Withdraws the quote's referral while it waits for an underwriter; answers the referral, WITHDRAWN. */
    withdrawReferral: (quoteId: string, o?: RequestOptions) => api.json('withdrawQuoteReferral', { quoteId }, {}, o),
    screening: screeningOf(api),
  };
}

/**
 * Medical screening of the quote's traveller `guid` (a `policyHolders[].guid`). Answering and
 * completing are safe to repeat (the server says so), so they are retried like a GET; starting
 * and making a link are not.
 */
function screeningOf(api: Api) {
  return {
    start: (quoteId: string, guid: string, body: Body<'startScreening'>, o?: RequestOptions) =>
      api.json('startScreening', { quoteId, guid }, { body }, o),
    get: (quoteId: string, guid: string, o?: RequestOptions) => api.json('getScreening', { quoteId, guid }, {}, o),
    answer: (quoteId: string, guid: string, body: Body<'answerScreening'>, o?: RequestOptions) =>
      api.json('answerScreening', { quoteId, guid }, { body, repeatable: true }, o),
    complete: (quoteId: string, guid: string, o?: RequestOptions) =>
      api.json('completeScreening', { quoteId, guid }, { repeatable: true }, o),
    /** A link to the hosted questionnaire for this traveller (revokes their earlier links). */
    link: (quoteId: string, guid: string, body: Body<'createScreeningLink'>, o?: RequestOptions) =>
      api.json('createScreeningLink', { quoteId, guid }, { body }, o),
  };
}

export type Quotes = ReturnType<typeof quotesOf>;

export function purchasesOf(api: Api) {
  return {
    /** Buys a quote: keyed (one Idempotency-Key per call, kept across retries). 3-D Secure comes back as data. */
    create: (body: Body<'purchaseQuote'>, o?: RequestOptions) =>
      api.json('purchaseQuote', {}, { body, keyed: true }, o),
  };
}

export type Purchases = ReturnType<typeof purchasesOf>;
