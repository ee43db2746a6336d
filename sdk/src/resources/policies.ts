import type { RequestOptions } from '../transport.js';
import type { Body } from '../types.js';
import type { Api } from './api.js';

export function policiesOf(api: Api) {
  return {
    get: (policyNumber: string, o?: RequestOptions) => api.json('getPolicySummary', { policyNumber }, {}, o),
    details: (policyNumber: string, o?: RequestOptions) => api.json('getPolicyDetails', { policyNumber }, {}, o),
  };
}

export type Policies = ReturnType<typeof policiesOf>;

export function documentsOf(api: Api) {
  return {
    list: (policyNumber: string, o?: RequestOptions) => api.json('listPolicyDocuments', { policyNumber }, {}, o),
    /** The document's bytes (a PDF). */
    download: (policyNumber: string, documentId: string, o?: RequestOptions) =>
      api.bytes('getPolicyDocument', { policyNumber, documentId }, { accept: 'application/pdf' }, o),
    /** Emails the documents: keyed (one Idempotency-Key per call, kept across retries). */
    send: (policyNumber: string, body: Body<'sendPolicyDocuments'> = {}, o?: RequestOptions) =>
      api.json('sendPolicyDocuments', { policyNumber }, { body, keyed: true }, o),
  };
}

export type Documents = ReturnType<typeof documentsOf>;

/** Amendments and cancellations: a preview, then a keyed confirm that moves the money. */
export function changesOf(api: Api) {
  return {
    previewAmendment: (policyNumber: string, body: Body<'previewAmendment'>, o?: RequestOptions) =>
      api.json('previewAmendment', { policyNumber }, { body }, o),
    /**
     * Keyed. `paymentResult` is absent when no money moved (a `transactionAmount` of 0: the
     * amendment is applied at once); a charge answers `APPROVED`, a challenge or a decline.
     */
    confirmAmendment: (policyNumber: string, amendmentId: string, body: Body<'confirmAmendment'>, o?: RequestOptions) =>
      api.json('confirmAmendment', { policyNumber, amendmentId }, { body, keyed: true }, o),
    getAmendment: (policyNumber: string, amendmentId: string, o?: RequestOptions) =>
      api.json('getAmendment', { policyNumber, amendmentId }, {}, o),
    previewCancellation: (policyNumber: string, body: Body<'previewCancellation'>, o?: RequestOptions) =>
      api.json('previewCancellation', { policyNumber }, { body }, o),
    /** Keyed; a refund answers `paymentResult: 'REFUNDED'` with `refunds`. */
    confirmCancellation: (
      policyNumber: string,
      cancellationId: string,
      body: Body<'confirmCancellation'> = {},
      o?: RequestOptions,
    ) => api.json('confirmCancellation', { policyNumber, cancellationId }, { body, keyed: true }, o),
    getCancellation: (policyNumber: string, cancellationId: string, o?: RequestOptions) =>
      api.json('getCancellation', { policyNumber, cancellationId }, {}, o),
  };
}

export type Changes = ReturnType<typeof changesOf>;
