import type { ExampleValues } from './values.js';

/**
 * One request example per operation of the partner API, written from `ExampleValues`: the
 * parameters by name (path, query and header alike) and the body. `EXAMPLE_ORDER` is the order
 * in which they succeed one after another against a demo server (test/http/openapi-examples.test.ts
 * sends them so): reads before the changes that use their objects up.
 */
export interface OperationExample {
  readonly parameters?: Readonly<Record<string, string | number>>;
  readonly body?: unknown;
}

/** Every operation carries the brand its demo login is for. */
export const EXAMPLE_BRAND = 'brandau';

/** The trip of the demo quotes: Sydney to Bali, one adult traveller with every detail a purchase needs. */
export function demoTrip(
  v: Pick<ExampleValues, 'planId' | 'trip'>,
  options: { returnDate?: string; screened?: readonly string[]; destination?: string } = {},
) {
  const holder = (guid: string, isPrimary: boolean, firstName: string) => ({
    guid,
    dateOfBirth: '1984-05-02',
    isPrimary,
    firstName,
    lastName: 'Lovelace',
    emailAddress: 'ada@example.com',
    phoneNumber: '+61 400 000 000',
    ...(options.screened?.includes(guid)
      ? { travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: true, isOptedInForCover: true } }
      : {}),
  });
  const holders = [holder('h1', true, 'Ada')];
  if (options.screened !== undefined) holders.push(holder('h2', false, 'Byron'), holder('h3', false, 'Anne'));
  return {
    quoteType: 'SINGLETRIP',
    planId: v.planId,
    homeAddress: { countryCode: 'AUS', provinceCode: 'NSW', addressLine1: '1 George St', postalCode: '2000' },
    destinationCountryCodes: [options.destination ?? 'IDN'],
    departureDate: v.trip.departureDate,
    returnDate: options.returnDate ?? v.trip.returnDate,
    policyHolders: holders,
  };
}

const declarations = (v: ExampleValues) =>
  v.purchaseTerms.map((termConditionId) => ({ termConditionId, hasAgreed: true }));

const quote = (quoteId: string) => ({ brandCode: EXAMPLE_BRAND, quoteId });
const screening = (v: ExampleValues, guid: string) => ({ ...quote(v.screening.quoteId), guid });

const policy = (v: ExampleValues) => ({ brandCode: EXAMPLE_BRAND, policyNumber: v.policy.policyNumber });
const cancelled = (v: ExampleValues) => ({ brandCode: EXAMPLE_BRAND, policyNumber: v.cancellation.policyNumber });
const brand = { brandCode: EXAMPLE_BRAND };
const webhook = (webhookId: string) => ({ brandCode: EXAMPLE_BRAND, webhookId });
const product = { brandCode: EXAMPLE_BRAND, insuranceContractId: 1002 };
const pdsQuery = (v: ExampleValues) => ({ ...product, countryCode: 'AUS', provinceCode: 'NSW', planId: v.planId });

/** The examples by operation (`METHOD path` as the document names it), in `EXAMPLE_ORDER`. */
export function operationExamples(v: ExampleValues): Record<string, OperationExample> {
  const authorizedPerson = {
    firstName: 'Ada',
    surname: 'Lovelace',
    dateOfBirth: '1984-05-02',
    email: 'ada@example.com',
    phone: '+61 400 000 000',
  };
  return {
    'GET /health': {},
    'GET /ready': {},
    'GET /metrics': {},
    'GET /.well-known/oauth-authorization-server/users/{brandCode}': { parameters: brand },
    'POST /users/{brandCode}/token': {
      parameters: brand,
      body: {
        grant_type: 'password',
        client_id: 'API',
        username: v.login.username,
        password: v.login.password,
        customerInterfaceId: '8',
        userTypeId: '4',
      },
    },
    'GET /products/v1/{brandCode}/baseQuoteConfig': { parameters: { ...brand, quoteType: 'SINGLETRIP' } },
    'GET /products/v1/{brandCode}/plans': { parameters: { ...brand, planCode: 'COMP', partnerCode: 'DEMOA' } },
    'GET /products/v1/{brandCode}/brands': { parameters: brand },
    'GET /products/v1/{brandCode}/brands/{brandId}': { parameters: { ...brand, brandId: 1 } },
    'GET /products/v1/{brandCode}/features/{insuranceContractId}': { parameters: product },
    'GET /products/v2/{brandCode}/insuranceContract/{insuranceContractId}/pdsSummary': { parameters: pdsQuery(v) },
    'GET /products/v2/{brandCode}/insuranceContract/{insuranceContractId}/pds': { parameters: pdsQuery(v) },
    'POST /quotes/v2/{brandCode}/quote': { parameters: brand, body: { stage: 'BASEQUOTE', input: demoTrip(v) } },
    'PUT /quotes/v2/{brandCode}/quote/{quoteId}': {
      parameters: quote(v.quoteId),
      body: { stage: 'DETAILS', input: demoTrip(v) },
    },
    'GET /quotes/v2/{brandCode}/quote/{quoteId}': { parameters: quote(v.quoteId) },
    'POST /quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening': {
      parameters: screening(v, v.screening.unstartedGuid),
      body: { authorizedPerson },
    },
    'GET /quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening': {
      parameters: screening(v, v.screening.unstartedGuid),
    },
    'POST /quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening/answers': {
      parameters: screening(v, v.screening.answeringGuid),
      body: { answers: v.screening.answers },
    },
    'POST /quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening/complete': {
      parameters: screening(v, v.screening.answeringGuid),
    },
    'POST /quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening/link': {
      parameters: screening(v, v.screening.unstartedGuid),
      body: { returnUrl: 'https://shop.example/quote' },
    },
    'GET /screening/v1/{value}': { parameters: { value: v.screeningPage.value } },
    'POST /screening/v1/{value}': {
      parameters: { value: v.screeningPage.value },
      body: { step: 'who', csrf: v.screeningPage.csrf, who: 'TRAVELLER', ...authorizedPerson },
    },
    'POST /quotes/v2/{brandCode}/purchase': {
      parameters: { ...brand, 'Idempotency-Key': v.purchase.idempotencyKey },
      body: {
        quote: { id: v.purchase.quoteId, input: { regulatoryDeclarations: declarations(v) } },
        paymentMethod: 'ON_ACCOUNT',
      },
    },
    'POST /quotes/v2/{brandCode}/quote/{quoteId}/referral/withdraw': { parameters: quote(v.referredQuoteId) },
    'GET /policies/v1/{brandCode}/policies/{policyNumber}': { parameters: policy(v) },
    'GET /policies/v1/{brandCode}/policies/{policyNumber}/details': { parameters: policy(v) },
    'GET /policies/v1/{brandCode}/policies/{policyNumber}/documents': { parameters: policy(v) },
    'GET /policies/v1/{brandCode}/policies/{policyNumber}/documents/{documentId}': {
      parameters: { ...policy(v), documentId: v.policy.documentId },
    },
    'POST /policies/v1/{brandCode}/policies/{policyNumber}/documents/send': {
      parameters: { ...policy(v), 'Idempotency-Key': `send-${v.policy.policyNumber}` },
      body: {},
    },
    'GET /documents/v1/{policyDocumentAccessGuid}': {
      parameters: { policyDocumentAccessGuid: v.policy.documentAccessGuid },
    },
    'GET /documents/v1/{policyDocumentAccessGuid}/{documentId}': {
      parameters: { policyDocumentAccessGuid: v.policy.documentAccessGuid, documentId: v.policy.documentId },
    },
    'POST /policies/v1/{brandCode}/policies/{policyNumber}/amendments': {
      parameters: policy(v),
      body: { input: demoTrip(v, { returnDate: v.trip.laterReturnDate }) },
    },
    'GET /policies/v1/{brandCode}/policies/{policyNumber}/amendments/{amendmentId}': {
      parameters: { ...policy(v), amendmentId: v.policy.amendmentId },
    },
    'POST /policies/v1/{brandCode}/policies/{policyNumber}/amendments/{amendmentId}/confirm': {
      parameters: {
        ...policy(v),
        amendmentId: v.policy.amendmentId,
        'Idempotency-Key': `amend-${v.policy.amendmentId}`,
      },
      body: { cardToken: { token: 'tok_sandbox_approved', source: 'hosted-page' } },
    },
    'POST /policies/v1/{brandCode}/policies/{policyNumber}/cancellations': {
      parameters: cancelled(v),
      body: { reasonCode: 'TRIP_CANCELLED' },
    },
    'GET /policies/v1/{brandCode}/policies/{policyNumber}/cancellations/{cancellationId}': {
      parameters: { ...cancelled(v), cancellationId: v.cancellation.cancellationId },
    },
    'POST /policies/v1/{brandCode}/policies/{policyNumber}/cancellations/{cancellationId}/confirm': {
      parameters: {
        ...cancelled(v),
        cancellationId: v.cancellation.cancellationId,
        'Idempotency-Key': `cancel-${v.cancellation.cancellationId}`,
      },
      body: {},
    },
    'POST /partners/v1/{brandCode}/webhooks': { parameters: brand, body: { url: v.webhooks.url } },
    'GET /partners/v1/{brandCode}/webhooks': { parameters: brand },
    'GET /partners/v1/{brandCode}/webhooks/{webhookId}': { parameters: webhook(v.webhooks.webhookId) },
    'PATCH /partners/v1/{brandCode}/webhooks/{webhookId}': {
      parameters: webhook(v.webhooks.webhookId),
      body: { description: 'Policy events for the booking site' },
    },
    'POST /partners/v1/{brandCode}/webhooks/{webhookId}/rotate-secret': {
      parameters: webhook(v.webhooks.webhookId),
      body: {},
    },
    'POST /partners/v1/{brandCode}/webhooks/{webhookId}/test': { parameters: webhook(v.webhooks.webhookId) },
    'DELETE /partners/v1/{brandCode}/webhooks/{webhookId}': { parameters: webhook(v.webhooks.spareWebhookId) },
    'GET /partners/v1/{brandCode}/events': { parameters: { ...brand, after: v.eventId, limit: 10 } },
    'GET /partners/v1/{brandCode}/events/{eventId}': { parameters: { ...brand, eventId: v.eventId } },
    'POST /partners/v1/{brandCode}/events/{eventId}/redeliver': {
      parameters: { ...brand, eventId: v.eventId },
      body: {},
    },
    'POST /partners/v1/{brandCode}/events/redeliver': {
      parameters: brand,
      body: { from: v.eventWindow.from, to: v.eventWindow.to, failedOnly: false },
    },
    'GET /partners/v1/{brandCode}/statements': { parameters: brand },
    'GET /partners/v1/{brandCode}/statements/{month}': { parameters: { ...brand, month: v.statementMonth } },
  };
}
