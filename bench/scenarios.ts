import type { QuoteRequest } from '../src/quotes/schemas.js';
import { boughtPolicies, confirmSupply, extendedTripBody, previewRequest, type QuoteSeeder } from './change-supply.js';
import {
  benchPolicy,
  cancellationPreviewRequest,
  changeReadRequest,
  customerLinkRequest,
  documentListRequest,
  documentPdfRequest,
  documentResendRequest,
  type BenchPolicy,
} from './policy-fixture.js';
import { purchaseSupply } from './quote-supply.js';
import type { BenchApi, BenchRequest } from './requests.js';
import type { BenchFixtures } from './seed/database.js';
import { seedQuotes } from './seed/quotes.js';

export type Engine = 'sqlite' | 'postgres';

/** What a scenario may need to know about the run it prepares for. */
export interface BenchRun {
  readonly engine: Engine;
  readonly durationSeconds: number;
  /** Unmeasured load before the measured run (it draws on a request supply too). */
  readonly warmUpSeconds?: number;
  readonly connections: number;
  /** The database the server runs on (SQLITE_PATH or DATABASE_URL), for preparations in the bench process. */
  readonly env: Record<string, string>;
  /** Previews prepared per second of load for a change confirm (`--change-supply`), instead of the engine's default. */
  readonly changeSupplyPerSecond?: number;
  /** Progress of long preparations (stderr). */
  readonly progress?: (line: string) => void;
}

/**
 * A scenario's target: a share of a ceiling's req/s (optionally with a p99 bound), or an absolute
 * rate of successful (2xx) requests per engine. Standing targets: docs/performance.md, "Targets".
 */
export type ScenarioTarget =
  | { readonly kind: 'ratio'; readonly ceiling: 'fastify' | 'node'; readonly ratio: number; readonly p99Ms?: number }
  | { readonly kind: 'rate'; readonly perSecond: Readonly<Record<Engine, number>> };

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly target?: ScenarioTarget;
  /**
   * Run on a server whose outbox worker renders and mails the policy documents (bench/server.ts);
   * the server's CPU is counted until every document of the round's requests was delivered.
   * Every other row runs on a server whose worker does nothing during the run.
   */
  readonly documents?: boolean;
  prepare(api: BenchApi, fixtures: BenchFixtures, run: BenchRun): Promise<BenchRequest>;
}

const BRAND = 'brandau';
// A demo login (README, "Getting a token"); its partner owns the fixture policies.
export const LOGIN = { username: 'demoa.brandau@demo.example', password: 'DEMOA-brandau-demo-pass' };

/** The password grant exactly as a partner sends it. */
function tokenRequest(): BenchRequest {
  const form = new URLSearchParams({
    grant_type: 'password',
    client_id: 'API',
    customerInterfaceId: '8',
    userTypeId: '4',
    ...LOGIN,
  });
  return {
    method: 'POST',
    path: `/users/${BRAND}/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  };
}

export async function bearer(api: BenchApi): Promise<Record<string, string>> {
  const res = await api.call(tokenRequest());
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.body}`);
  return { authorization: `Bearer ${(JSON.parse(res.body) as { access_token: string }).access_token}` };
}

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** The quote: two adults and a dependent, Sydney to Bali for 14 days, two basic options opted in, every plan priced. */
function quoteBody(): string {
  return JSON.stringify({
    input: {
      quoteType: 'SINGLETRIP',
      homeAddress: { countryCode: 'AUS', provinceCode: 'NSW' },
      destinationCountryCodes: ['IDN'],
      departureDate: isoDay(30),
      returnDate: isoDay(43),
      policyHolders: [
        { guid: 'adult-1', age: 42, isPrimary: true },
        { guid: 'adult-2', age: 40 },
        { guid: 'child-1', age: 9, isDependent: true },
      ],
      basicOptions: [
        { optionType: 'CRUISE', isOptedIn: true },
        { optionType: 'SNOWSPORTS', isOptedIn: true },
      ],
    },
  });
}

const json = { 'content-type': 'application/json' };
const ofFixture = (fixtures: BenchFixtures) => {
  const number = fixtures.policyNumbers[0];
  if (!number) throw new Error('no fixture policy: prepareBenchDatabase issues them');
  return number;
};

// Targets from issue 7 ("Targets"): product reads against node:http, quote create against
// Fastify, purchases in absolute purchases per second.
const PURCHASE_TARGET = { sqlite: 800, postgres: 300 } as const;
/** Ready quotes created per second of load: twice the higher target. */
const PURCHASE_SUPPLY_PER_SECOND = 2 * Math.max(PURCHASE_TARGET.sqlite, PURCHASE_TARGET.postgres);

/**
 * Previews prepared per second of load in a change-confirm scenario (each needs a policy bought
 * and previewed through the API first, so the supply costs preparation time): above the purchase
 * rates each engine reached (a confirm does no less than a purchase).
 */
const CHANGE_SUPPLY_PER_SECOND = { sqlite: 1_500, postgres: 600 } as const;

/** Ready quotes seeded in the bench process (bench/seed/quotes.ts), as the purchase's supply is. */
const quoteSeeder =
  (run: BenchRun, label: string): QuoteSeeder =>
  (body, count) =>
    seedQuotes(run.env, {
      brandCode: BRAND,
      login: LOGIN.username,
      body: JSON.parse(body) as QuoteRequest,
      count,
      onProgress: (done) => run.progress?.(`${label}: ${done}/${count} ready quotes`),
    });

const changeCount = (run: BenchRun) =>
  Math.ceil(
    (run.durationSeconds + (run.warmUpSeconds ?? 0)) *
      (run.changeSupplyPerSecond ?? CHANGE_SUPPLY_PER_SECOND[run.engine]),
  );

/** One policy bought through the API for a row that reads or replays (bench/policy-fixture.ts). */
const onePolicy = async (api: BenchApi, run: BenchRun, label: string): Promise<BenchPolicy> =>
  benchPolicy(api, await bearer(api), quoteSeeder(run, label));

/** Purchases of ready quotes: enough for the run at a rate well above the target; running out is reported, never hidden. */
async function purchases(api: BenchApi, run: BenchRun, label: string): Promise<BenchRequest> {
  const count = Math.ceil((run.durationSeconds + (run.warmUpSeconds ?? 0)) * PURCHASE_SUPPLY_PER_SECOND);
  const started = performance.now();
  const request = await purchaseSupply(api, await bearer(api), count, quoteSeeder(run, label));
  run.progress?.(`${label}: ${count + 1} ready quotes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return request;
}

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
    name: 'purchaseWithDocuments',
    description:
      "The purchase row while the outbox worker renders each policy's certificate and mails it with the PDS (sandbox mailbox): CPU per purchase counted until every e-mail was delivered.",
    documents: true,
    prepare: (api, _fixtures, run) => purchases(api, run, 'purchaseWithDocuments'),
  },
  {
    name: 'amendmentPreview',
    description:
      'POST /policies/v1/{brand}/policies/{policyNumber}/amendments: the bought Bali trip returning a week later, re-priced and the difference recorded as a preview (the same policy each time).',
    prepare: async (api, _fixtures, run) => {
      const headers = await bearer(api);
      const [policyNumber] = await boughtPolicies(api, headers, 1, quoteSeeder(run, 'amendmentPreview'));
      return previewRequest(headers, policyNumber!, 'amendments', await extendedTripBody(api, headers));
    },
  },
  {
    name: 'amendmentConfirm',
    description:
      '…/amendments/{id}/confirm: a different policy and preview per request (return a week later), the difference charged with tok_sandbox_approved: authorise, apply, capture.',
    prepare: async (api, _fixtures, run) =>
      confirmSupply(api, await bearer(api), {
        kind: 'amendments',
        count: changeCount(run),
        seed: quoteSeeder(run, 'amendmentConfirm'),
        ...(run.progress ? { progress: run.progress } : {}),
      }),
  },
  {
    name: 'cancellationConfirm',
    description:
      '…/cancellations/{id}/confirm: a different policy and preview per request, cancelled in cooling-off: the whole premium refunded to the purchase payment.',
    prepare: async (api, _fixtures, run) =>
      confirmSupply(api, await bearer(api), {
        kind: 'cancellations',
        count: changeCount(run),
        seed: quoteSeeder(run, 'cancellationConfirm'),
        ...(run.progress ? { progress: run.progress } : {}),
      }),
  },
  {
    name: 'cancellationPreview',
    description:
      'POST /policies/v1/{brand}/policies/{policyNumber}/cancellations: the refund of a bought policy cancelled in cooling-off, recorded as a preview (the same policy each time).',
    prepare: async (api, _fixtures, run) =>
      cancellationPreviewRequest(await onePolicy(api, run, 'cancellationPreview')),
  },
  {
    name: 'amendmentRead',
    description:
      '…/amendments/{id}: an amendment preview (return a week later) of a bought policy, with its status now.',
    prepare: async (api, _fixtures, run) => changeReadRequest(await onePolicy(api, run, 'amendmentRead'), 'amendments'),
  },
  {
    name: 'cancellationRead',
    description: '…/cancellations/{id}: a cancellation preview of a bought policy, with its status now.',
    prepare: async (api, _fixtures, run) =>
      changeReadRequest(await onePolicy(api, run, 'cancellationRead'), 'cancellations'),
  },
  {
    name: 'documentList',
    description:
      '…/policies/{policyNumber}/documents: the kept documents of a bought policy (certificate per language), rendered by a first list before the clock.',
    prepare: async (api, _fixtures, run) => documentListRequest(await onePolicy(api, run, 'documentList')),
  },
  {
    name: 'documentPdf',
    description:
      '…/documents/{documentId}: the kept certificate PDF of a bought policy, byte for byte as first rendered.',
    prepare: async (api, _fixtures, run) => documentPdfRequest(await onePolicy(api, run, 'documentPdf')),
  },
  {
    name: 'customerLink',
    description:
      "GET /documents/v1/{policyDocumentAccessGuid}: the customer's public page of a bought policy's documents (no token; its per-address limit is off in the bench).",
    prepare: async (api, _fixtures, run) => customerLinkRequest(await onePolicy(api, run, 'customerLink')),
  },
  {
    name: 'documentResend',
    description:
      '…/documents/send: 202, a new e-mail of the documents queued in the outbox per request (the worker makes no pass during the run).',
    prepare: async (api, _fixtures, run) => documentResendRequest(await onePolicy(api, run, 'documentResend')),
  },
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
];
