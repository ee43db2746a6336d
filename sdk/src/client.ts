import { TokenKeeper, type PartnerCredentials, type TokenSet } from './auth.js';
import { Transport, type Call, type RequestOptions } from './transport.js';
import { sign, verify } from './webhooks.js';
import type { Answer, Body, BrandCode, OperationId, Query, Schemas } from './types.js';

type EventOf = Schemas['Event'];

export interface PartnerClientOptions {
  /** The API's origin and base path, e.g. `https://api.example.com`. */
  readonly baseUrl: string;
  /** The brand every call is made for (a token is issued per brand). */
  readonly brand: BrandCode;
  readonly credentials?: PartnerCredentials;
  /** Defaults to the global fetch. */
  readonly fetch?: typeof fetch;
  /** Retries of a retryable failure (default 2). */
  readonly maxRetries?: number;
  /** Milliseconds per attempt (default 60 000). */
  readonly timeout?: number;
}

const seg = encodeURIComponent;

/** A partner API client bound to one brand; methods grouped by resource, typed per operation. */
export class PartnerClient {
  readonly brand: BrandCode;
  private readonly transport: Transport;
  private readonly tokens: TokenKeeper;

  constructor(options: PartnerClientOptions) {
    this.brand = options.brand;
    const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const base = options.baseUrl.replace(/\/$/, '');
    this.tokens = new TokenKeeper(`${base}/users/${seg(options.brand)}/token`, options.credentials, fetchFn);
    this.transport = new Transport({
      baseUrl: base,
      fetch: fetchFn,
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeout ?? 60_000,
      tokens: this.tokens,
    });
  }

  private call<K extends OperationId>(_operation: K, call: Call, options?: RequestOptions): Promise<Answer<K>> {
    return this.transport.send<Answer<K>>(call, options);
  }

  private get b(): string {
    return seg(this.brand);
  }

  readonly auth = {
    /** Signs in now (otherwise the first call does); answers the token pair. */
    signIn: (): Promise<TokenSet> => this.tokens.renew(undefined),
  };

  readonly products = {
    baseQuoteConfig: (query: Query<'getBaseQuoteConfig'>, o?: RequestOptions) =>
      this.call('getBaseQuoteConfig', { method: 'GET', path: `/products/v1/${this.b}/baseQuoteConfig`, query }, o),
    plan: (query: Query<'getPlanByCode'>, o?: RequestOptions) =>
      this.call('getPlanByCode', { method: 'GET', path: `/products/v1/${this.b}/plans`, query }, o),
    brands: (o?: RequestOptions) =>
      this.call('getBrandContent', { method: 'GET', path: `/products/v1/${this.b}/brands` }, o),
    features: (insuranceContractId: number, o?: RequestOptions) =>
      this.call(
        'getFeatureSwitches',
        { method: 'GET', path: `/products/v1/${this.b}/features/${insuranceContractId}` },
        o,
      ),
  };

  readonly quotes = {
    create: (body: Body<'createQuote'>, o?: RequestOptions) =>
      this.call('createQuote', { method: 'POST', path: `/quotes/v2/${this.b}/quote`, body }, o),
    update: (quoteId: string, body: Body<'updateQuote'>, o?: RequestOptions) =>
      this.call('updateQuote', { method: 'PUT', path: `/quotes/v2/${this.b}/quote/${seg(quoteId)}`, body }, o),
    get: (quoteId: string, o?: RequestOptions) =>
      this.call('getQuote', { method: 'GET', path: `/quotes/v2/${this.b}/quote/${seg(quoteId)}` }, o),
  };

  readonly purchases = {
    /** Buys a quote: keyed (one Idempotency-Key per call, kept across retries). 3-D Secure comes back as data. */
    create: (body: Body<'purchaseQuote'>, o?: RequestOptions) =>
      this.call('purchaseQuote', { method: 'POST', path: `/quotes/v2/${this.b}/purchase`, body, keyed: true }, o),
  };

  private policyPath(policyNumber: string): string {
    return `/policies/v1/${this.b}/policies/${seg(policyNumber)}`;
  }

  readonly policies = {
    get: (policyNumber: string, o?: RequestOptions) =>
      this.call('getPolicySummary', { method: 'GET', path: this.policyPath(policyNumber) }, o),
    details: (policyNumber: string, o?: RequestOptions) =>
      this.call('getPolicyDetails', { method: 'GET', path: `${this.policyPath(policyNumber)}/details` }, o),
  };

  readonly documents = {
    list: (policyNumber: string, o?: RequestOptions) =>
      this.call('listPolicyDocuments', { method: 'GET', path: `${this.policyPath(policyNumber)}/documents` }, o),
    /** The document's bytes (a PDF). */
    download: (policyNumber: string, documentId: string, o?: RequestOptions): Promise<ArrayBuffer> =>
      this.transport.send<ArrayBuffer>(
        { method: 'GET', path: `${this.policyPath(policyNumber)}/documents/${seg(documentId)}`, binary: true },
        o,
      ),
    send: (policyNumber: string, body: Body<'sendPolicyDocuments'> = {}, o?: RequestOptions) =>
      this.call(
        'sendPolicyDocuments',
        { method: 'POST', path: `${this.policyPath(policyNumber)}/documents/send`, body, keyed: true },
        o,
      ),
  };

  readonly changes = {
    previewAmendment: (policyNumber: string, body: Body<'previewAmendment'>, o?: RequestOptions) =>
      this.call('previewAmendment', { method: 'POST', path: `${this.policyPath(policyNumber)}/amendments`, body }, o),
    confirmAmendment: (policyNumber: string, amendmentId: string, body: Body<'confirmAmendment'>, o?: RequestOptions) =>
      this.call(
        'confirmAmendment',
        {
          method: 'POST',
          path: `${this.policyPath(policyNumber)}/amendments/${seg(amendmentId)}/confirm`,
          body,
          keyed: true,
        },
        o,
      ),
    getAmendment: (policyNumber: string, amendmentId: string, o?: RequestOptions) =>
      this.call(
        'getAmendment',
        { method: 'GET', path: `${this.policyPath(policyNumber)}/amendments/${seg(amendmentId)}` },
        o,
      ),
    previewCancellation: (policyNumber: string, body: Body<'previewCancellation'>, o?: RequestOptions) =>
      this.call(
        'previewCancellation',
        { method: 'POST', path: `${this.policyPath(policyNumber)}/cancellations`, body },
        o,
      ),
    confirmCancellation: (
      policyNumber: string,
      cancellationId: string,
      body: Body<'confirmCancellation'> = {},
      o?: RequestOptions,
    ) =>
      this.call(
        'confirmCancellation',
        {
          method: 'POST',
          path: `${this.policyPath(policyNumber)}/cancellations/${seg(cancellationId)}/confirm`,
          body,
          keyed: true,
        },
        o,
      ),
    getCancellation: (policyNumber: string, cancellationId: string, o?: RequestOptions) =>
      this.call(
        'getCancellation',
        { method: 'GET', path: `${this.policyPath(policyNumber)}/cancellations/${seg(cancellationId)}` },
        o,
      ),
  };

  readonly webhooks = {
    create: (body: Body<'createWebhook'>, o?: RequestOptions) =>
      this.call('createWebhook', { method: 'POST', path: `/partners/v1/${this.b}/webhooks`, body }, o),
    list: (o?: RequestOptions) =>
      this.call('listWebhooks', { method: 'GET', path: `/partners/v1/${this.b}/webhooks` }, o),
    get: (webhookId: string, o?: RequestOptions) =>
      this.call('getWebhook', { method: 'GET', path: `/partners/v1/${this.b}/webhooks/${seg(webhookId)}` }, o),
    update: (webhookId: string, body: Body<'updateWebhook'>, o?: RequestOptions) =>
      this.call(
        'updateWebhook',
        { method: 'PATCH', path: `/partners/v1/${this.b}/webhooks/${seg(webhookId)}`, body },
        o,
      ),
    delete: (webhookId: string, o?: RequestOptions) =>
      this.call('deleteWebhook', { method: 'DELETE', path: `/partners/v1/${this.b}/webhooks/${seg(webhookId)}` }, o),
    rotateSecret: (webhookId: string, body: Body<'rotateWebhookSecret'> = {}, o?: RequestOptions) =>
      this.call(
        'rotateWebhookSecret',
        { method: 'POST', path: `/partners/v1/${this.b}/webhooks/${seg(webhookId)}/rotate-secret`, body },
        o,
      ),
    test: (webhookId: string, o?: RequestOptions) =>
      this.call('testWebhook', { method: 'POST', path: `/partners/v1/${this.b}/webhooks/${seg(webhookId)}/test` }, o),
    verify,
    sign,
  };

  readonly events = {
    list: (query: Query<'listEvents'> = {}, o?: RequestOptions) =>
      this.call('listEvents', { method: 'GET', path: `/partners/v1/${this.b}/events`, query }, o),
    get: (eventId: string, o?: RequestOptions) =>
      this.call('getEvent', { method: 'GET', path: `/partners/v1/${this.b}/events/${seg(eventId)}` }, o),
    redeliver: (eventId: string, body: Body<'redeliverEvent'> = {}, o?: RequestOptions) =>
      this.call(
        'redeliverEvent',
        { method: 'POST', path: `/partners/v1/${this.b}/events/${seg(eventId)}/redeliver`, body },
        o,
      ),
    /**
     * Every event after `after` (from the first when absent), page by page, until the feed holds no
     * more; keep the last id you processed and pass it as `after` to resume.
     */
    iterate: (query: Query<'listEvents'> = {}, o?: RequestOptions): AsyncGenerator<EventOf> =>
      iterateFeed((after) => this.events.list({ ...query, ...(after === undefined ? {} : { after }) }, o), query.after),
  };

  readonly statements = {
    list: (o?: RequestOptions) =>
      this.call('listStatements', { method: 'GET', path: `/partners/v1/${this.b}/statements` }, o),
    get: (month: string, o?: RequestOptions) =>
      this.call('getStatement', { method: 'GET', path: `/partners/v1/${this.b}/statements/${seg(month)}` }, o),
  };
}

async function* iterateFeed(
  page: (after: string | undefined) => Promise<Schemas['EventFeed']>,
  start: string | undefined,
): AsyncGenerator<EventOf> {
  let after = start;
  for (;;) {
    const { events, hasMore } = await page(after);
    for (const event of events) {
      yield event;
      after = event.id;
    }
    if (!hasMore || events.length === 0) return;
  }
}
