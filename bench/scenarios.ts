import {
  bearer,
  BRAND,
  json,
  ofFixture,
  purchases,
  PURCHASE_TARGET,
  quoteBody,
  tokenRequest,
  type Scenario,
} from './scenario.js';
import { AFTER_SALE_SCENARIOS } from './scenarios-after-sale.js';
import { CONSOLE_SCENARIOS } from './scenarios-console.js';
import { EVENT_SCENARIOS } from './scenarios-events.js';
import { SCREENING_SCENARIOS } from './scenarios-screening.js';
import { STATEMENT_SCENARIOS } from './scenarios-statements.js';

/** Every row of `npm run bench`, in the order they run. */
export const SCENARIOS: Scenario[] = [
  {
    name: 'health',
    description: 'GET /health: the smallest request the server answers (harness check).',
    prepare: () => Promise.resolve({ method: 'GET', path: '/health' }),
  },
  {
    name: 'token',
    description:
      'POST /users/{brand}/token, password grant: argon2id verification (19 MiB, t=2) by design, the slowest call.',
    prepare: () => Promise.resolve(tokenRequest()),
  },
  {
    name: 'oauthMetadata',
    description:
      'GET /.well-known/oauth-authorization-server/users/{brand}: RFC 8414 metadata a client discovers the token endpoint from.',
    prepare: () => Promise.resolve({ method: 'GET', path: `/.well-known/oauth-authorization-server/users/${BRAND}` }),
  },
  {
    name: 'baseQuoteConfig',
    description:
      'GET /products/v1/{brand}/baseQuoteConfig?quoteType=SINGLETRIP: serialised once per catalogue version.',
    prepare: async (api) => ({
      method: 'GET',
      path: `/products/v1/${BRAND}/baseQuoteConfig?quoteType=SINGLETRIP`,
      headers: await bearer(api),
    }),
  },
  {
    name: 'planByCode',
    description: 'GET /products/v1/{brand}/plans?planCode=COMP: the plan version in force, serialised once.',
    prepare: async (api) => ({
      method: 'GET',
      path: `/products/v1/${BRAND}/plans?planCode=COMP`,
      headers: await bearer(api),
    }),
  },
  {
    name: 'quoteCreate',
    description:
      'POST /quotes/v2/{brand}/quote: 2 adults + 1 dependent, 14 days, every plan priced, 2 options opted in; stored (one durable commit each).',
    prepare: async (api) => ({
      method: 'POST',
      path: `/quotes/v2/${BRAND}/quote`,
      headers: { ...(await bearer(api)), ...json },
      body: quoteBody(),
    }),
  },
  {
    name: 'quoteRetrieve',
    description: 'GET /quotes/v2/{brand}/quote/{id}: a stored quote of the caller.',
    prepare: async (api) => {
      const headers = await bearer(api);
      const created = await api.call({
        method: 'POST',
        path: `/quotes/v2/${BRAND}/quote`,
        headers: { ...headers, ...json },
        body: quoteBody(),
      });
      const { id } = JSON.parse(created.body) as { id?: string };
      if (created.status !== 200 || !id) throw new Error(`quote create: ${created.status} ${created.body}`);
      return { method: 'GET', path: `/quotes/v2/${BRAND}/quote/${id}`, headers };
    },
  },
  {
    name: 'purchase',
    description:
      'POST /quotes/v2/{brand}/purchase: a different ready quote per request (the Bali trip at DETAILS, COMP, terms agreed), card tok_sandbox_approved: authorise, issue, capture.',
    target: { kind: 'rate', perSecond: PURCHASE_TARGET },
    prepare: (api, _fixtures, run) => purchases(api, run, 'purchase'),
  },
  {
    name: 'onAccountPurchase',
    description:
      "The purchase row paid on account (paymentMethod ON_ACCOUNT, the demo partner DEMOA): the same money flow over the partner's ledger (hold, issue, charge), no card gateway.",
    target: { kind: 'rate', perSecond: PURCHASE_TARGET },
    prepare: (api, _fixtures, run) => purchases(api, run, 'onAccountPurchase', 'ON_ACCOUNT'),
  },
  {
    name: 'purchaseWithDocuments',
    description:
      "The purchase row while the outbox worker renders each policy's certificate and mails it with the PDS (sandbox mailbox): CPU per purchase counted until every e-mail was delivered.",
    outboxWorker: true,
    prepare: (api, _fixtures, run) => purchases(api, run, 'purchaseWithDocuments'),
  },
  ...SCREENING_SCENARIOS,
  ...AFTER_SALE_SCENARIOS,
  ...EVENT_SCENARIOS,
  ...STATEMENT_SCENARIOS,
  {
    name: 'policySummary',
    description: 'GET /policies/v1/{brand}/policies/{policyNumber}: one policy issued by the issuing commit.',
    prepare: async (api, fixtures) => ({
      method: 'GET',
      path: `/policies/v1/${BRAND}/policies/${ofFixture(fixtures)}`,
      headers: await bearer(api),
    }),
  },
  {
    name: 'policyDetails',
    description: 'GET /policies/v1/{brand}/policies/{policyNumber}/details: every transaction of that policy.',
    prepare: async (api, fixtures) => ({
      method: 'GET',
      path: `/policies/v1/${BRAND}/policies/${ofFixture(fixtures)}/details`,
      headers: await bearer(api),
    }),
  },
  ...CONSOLE_SCENARIOS,
];
