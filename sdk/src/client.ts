import { TokenKeeper, type PartnerCredentials, type TokenSet } from './auth.js';
import { pathOf } from './operations.js';
import { Api } from './resources/api.js';
import { eventsOf, webhooksOf, type Events, type Webhooks } from './resources/partners.js';
import {
  changesOf,
  documentsOf,
  policiesOf,
  type Changes,
  type Documents,
  type Policies,
} from './resources/policies.js';
import { productsOf, type Products } from './resources/products.js';
import { purchasesOf, quotesOf, type Purchases, type Quotes } from './resources/quotes.js';
import { statementsOf, type Statements } from './resources/statements.js';
import { Transport } from './transport.js';
import type { BrandCode } from './types.js';

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

/**
 * A partner API client bound to one brand; methods grouped by resource, typed per operation.
 * Every partner operation has its member (operations.ts names which).
 */
export class PartnerClient {
  readonly brand: BrandCode;
  readonly auth: {
    /** Signs in now (otherwise the first call does); answers the token pair. */
    readonly signIn: () => Promise<TokenSet>;
  };
  readonly products: Products;
  readonly quotes: Quotes;
  readonly purchases: Purchases;
  readonly policies: Policies;
  readonly documents: Documents;
  readonly changes: Changes;
  readonly webhooks: Webhooks;
  readonly events: Events;
  readonly statements: Statements;

  constructor(options: PartnerClientOptions) {
    this.brand = options.brand;
    const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const base = options.baseUrl.replace(/\/$/, '');
    const tokens = new TokenKeeper(
      base + pathOf('issueToken', { brandCode: options.brand }),
      options.credentials,
      fetchFn,
    );
    const transport = new Transport({
      baseUrl: base,
      fetch: fetchFn,
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeout ?? 60_000,
      tokens,
    });
    const api = new Api(transport, options.brand);
    this.auth = { signIn: () => tokens.renew(undefined) };
    this.products = productsOf(api);
    this.quotes = quotesOf(api);
    this.purchases = purchasesOf(api);
    this.policies = policiesOf(api);
    this.documents = documentsOf(api);
    this.changes = changesOf(api);
    this.webhooks = webhooksOf(api);
    this.events = eventsOf(api);
    this.statements = statementsOf(api);
  }
}
