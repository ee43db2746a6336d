/**
 * Every partner operation of the API and the client member that calls it. The methods build
 * their requests from this table (method and path), and a test holds it to the OpenAPI document:
 * a partner operation without a method, or a method whose route drifted, fails it.
 */
import type { OperationId } from './types.js';

export interface Operation {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path, `{name}` for each path parameter (`{brandCode}` is the client's brand). */
  readonly path: string;
  /** The client member that calls it, e.g. `quotes.screening.start`. */
  readonly member: string;
}

const P = '/policies/v1/{brandCode}/policies/{policyNumber}';
const S = '/quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening';
const W = '/partners/v1/{brandCode}/webhooks';
const E = '/partners/v1/{brandCode}/events';

export const OPERATIONS = {
  issueToken: { method: 'POST', path: '/users/{brandCode}/token', member: 'auth.signIn' },

  getBaseQuoteConfig: {
    method: 'GET',
    path: '/products/v1/{brandCode}/baseQuoteConfig',
    member: 'products.baseQuoteConfig',
  },
  getPlanByCode: { method: 'GET', path: '/products/v1/{brandCode}/plans', member: 'products.plan' },
  getBrandContent: { method: 'GET', path: '/products/v1/{brandCode}/brands', member: 'products.brands' },
  getBrandContentById: { method: 'GET', path: '/products/v1/{brandCode}/brands/{brandId}', member: 'products.brand' },
  getFeatureSwitches: {
    method: 'GET',
    path: '/products/v1/{brandCode}/features/{insuranceContractId}',
    member: 'products.features',
  },
  getPdsSummary: {
    method: 'GET',
    path: '/products/v2/{brandCode}/insuranceContract/{insuranceContractId}/pdsSummary',
    member: 'products.pdsSummary',
  },
  getPds: {
    method: 'GET',
    path: '/products/v2/{brandCode}/insuranceContract/{insuranceContractId}/pds',
    member: 'products.pds',
  },

  createQuote: { method: 'POST', path: '/quotes/v2/{brandCode}/quote', member: 'quotes.create' },
  updateQuote: { method: 'PUT', path: '/quotes/v2/{brandCode}/quote/{quoteId}', member: 'quotes.update' },
  getQuote: { method: 'GET', path: '/quotes/v2/{brandCode}/quote/{quoteId}', member: 'quotes.get' },
  withdrawQuoteReferral: {
    method: 'POST',
    path: '/quotes/v2/{brandCode}/quote/{quoteId}/referral/withdraw',
    member: 'quotes.withdrawReferral',
  },
  startScreening: { method: 'POST', path: S, member: 'quotes.screening.start' },
  getScreening: { method: 'GET', path: S, member: 'quotes.screening.get' },
  answerScreening: { method: 'POST', path: `${S}/answers`, member: 'quotes.screening.answer' },
  completeScreening: { method: 'POST', path: `${S}/complete`, member: 'quotes.screening.complete' },
  createScreeningLink: { method: 'POST', path: `${S}/link`, member: 'quotes.screening.link' },
  purchaseQuote: { method: 'POST', path: '/quotes/v2/{brandCode}/purchase', member: 'purchases.create' },

  getPolicySummary: { method: 'GET', path: P, member: 'policies.get' },
  getPolicyDetails: { method: 'GET', path: `${P}/details`, member: 'policies.details' },
  listPolicyDocuments: { method: 'GET', path: `${P}/documents`, member: 'documents.list' },
  getPolicyDocument: { method: 'GET', path: `${P}/documents/{documentId}`, member: 'documents.download' },
  sendPolicyDocuments: { method: 'POST', path: `${P}/documents/send`, member: 'documents.send' },
  previewAmendment: { method: 'POST', path: `${P}/amendments`, member: 'changes.previewAmendment' },
  confirmAmendment: {
    method: 'POST',
    path: `${P}/amendments/{amendmentId}/confirm`,
    member: 'changes.confirmAmendment',
  },
  getAmendment: { method: 'GET', path: `${P}/amendments/{amendmentId}`, member: 'changes.getAmendment' },
  previewCancellation: { method: 'POST', path: `${P}/cancellations`, member: 'changes.previewCancellation' },
  confirmCancellation: {
    method: 'POST',
    path: `${P}/cancellations/{cancellationId}/confirm`,
    member: 'changes.confirmCancellation',
  },
  getCancellation: { method: 'GET', path: `${P}/cancellations/{cancellationId}`, member: 'changes.getCancellation' },

  createWebhook: { method: 'POST', path: W, member: 'webhooks.create' },
  listWebhooks: { method: 'GET', path: W, member: 'webhooks.list' },
  getWebhook: { method: 'GET', path: `${W}/{webhookId}`, member: 'webhooks.get' },
  updateWebhook: { method: 'PATCH', path: `${W}/{webhookId}`, member: 'webhooks.update' },
  deleteWebhook: { method: 'DELETE', path: `${W}/{webhookId}`, member: 'webhooks.delete' },
  rotateWebhookSecret: { method: 'POST', path: `${W}/{webhookId}/rotate-secret`, member: 'webhooks.rotateSecret' },
  testWebhook: { method: 'POST', path: `${W}/{webhookId}/test`, member: 'webhooks.test' },
  listEvents: { method: 'GET', path: E, member: 'events.list' },
  getEvent: { method: 'GET', path: `${E}/{eventId}`, member: 'events.get' },
  redeliverEvent: { method: 'POST', path: `${E}/{eventId}/redeliver`, member: 'events.redeliver' },
  redeliverEvents: { method: 'POST', path: `${E}/redeliver`, member: 'events.redeliverRange' },
  listStatements: { method: 'GET', path: '/partners/v1/{brandCode}/statements', member: 'statements.list' },
  getStatement: { method: 'GET', path: '/partners/v1/{brandCode}/statements/{month}', member: 'statements.get' },
} as const satisfies { readonly [K in OperationId]?: Operation };

/** An operation the client calls. */
export type PartnerOperationId = keyof typeof OPERATIONS;

/** The path of `operation` with its parameters filled in, each percent-encoded. */
export function pathOf(operation: PartnerOperationId, params: Readonly<Record<string, string | number>>): string {
  return OPERATIONS[operation].path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${operation}: path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}
