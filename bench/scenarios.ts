import type { BenchFixtures } from './seed/database.js';

/** What one benchmark drives: a request prepared through the real API before the clock starts. */
export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface BenchApi {
  readonly url: string;
  call(request: BenchRequest): Promise<{ status: number; body: string; contentType: string }>;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  /** Which ceiling the target ratio is measured against, and the ratio required (0–1). */
  readonly target?: { readonly ceiling: 'fastify' | 'node'; readonly ratio: number; readonly p99Ms?: number };
  prepare(api: BenchApi, fixtures: BenchFixtures): Promise<BenchRequest>;
}

const BRAND = 'brandau';
// A demo login (README, "Getting a token"); its partner owns the fixture policies.
const LOGIN = { username: 'demoa.brandau@demo.example', password: 'DEMOA-brandau-demo-pass' };

/** The password grant exactly as a partner sends it. */
function tokenRequest(): BenchRequest {
  const form = new URLSearchParams({ grant_type: 'password', client_id: 'API', customerInterfaceId: '8', userTypeId: '4', ...LOGIN });
  return { method: 'POST', path: `/users/${BRAND}/token`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() };
}

async function bearer(api: BenchApi): Promise<Record<string, string>> {
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

// Targets from issue 7 ("Targets"): product reads against node:http, quote create against Fastify.
export const SCENARIOS: Scenario[] = [
  {
    name: 'health',
    description: 'GET /health: the smallest request the server answers (harness check).',
    prepare: () => Promise.resolve({ method: 'GET', path: '/health' }),
  },
  {
    name: 'token',
    description: 'POST /users/{brand}/token, password grant: argon2id verification (19 MiB, t=2) by design, the slowest call.',
    prepare: () => Promise.resolve(tokenRequest()),
  },
  {
    name: 'baseQuoteConfig',
    description: 'GET /products/v1/{brand}/baseQuoteConfig?quoteType=SINGLETRIP: serialised once per catalogue version.',
    target: { ceiling: 'node', ratio: 0.7 },
    prepare: async (api) => ({ method: 'GET', path: `/products/v1/${BRAND}/baseQuoteConfig?quoteType=SINGLETRIP`, headers: await bearer(api) }),
  },
  {
    name: 'planByCode',
    description: 'GET /products/v1/{brand}/plans?planCode=COMP: the plan version in force, serialised once.',
    target: { ceiling: 'node', ratio: 0.7 },
    prepare: async (api) => ({ method: 'GET', path: `/products/v1/${BRAND}/plans?planCode=COMP`, headers: await bearer(api) }),
  },
  {
    name: 'quoteCreate',
    description: 'POST /quotes/v2/{brand}/quote: 2 adults + 1 dependent, 14 days, every plan priced, 2 options opted in; stored (one durable commit each).',
    target: { ceiling: 'fastify', ratio: 0.5, p99Ms: 25 },
    prepare: async (api) => ({ method: 'POST', path: `/quotes/v2/${BRAND}/quote`, headers: { ...(await bearer(api)), ...json }, body: quoteBody() }),
  },
  {
    name: 'quoteRetrieve',
    description: 'GET /quotes/v2/{brand}/quote/{id}: a stored quote of the caller.',
    prepare: async (api) => {
      const headers = await bearer(api);
      const created = await api.call({ method: 'POST', path: `/quotes/v2/${BRAND}/quote`, headers: { ...headers, ...json }, body: quoteBody() });
      const { id } = JSON.parse(created.body) as { id?: string };
      if (created.status !== 200 || !id) throw new Error(`quote create: ${created.status} ${created.body}`);
      return { method: 'GET', path: `/quotes/v2/${BRAND}/quote/${id}`, headers };
    },
  },
  // PURCHASE: the lead adds a `purchase` scenario here after merging the purchase branch
  // (issue 7 target: ≥ 800 purchases/s on SQLite, ≥ 300/s on PostgreSQL). Each request needs
  // its own quote, so it needs a request generator (autocannon `requests[].setupRequest`), not
  // one fixed request: extend BenchRequest rather than replaying one purchase.
  {
    name: 'policySummary',
    description: 'GET /policies/v1/{brand}/policies/{policyNumber}: one policy issued by issuePolicy.',
    prepare: async (api, fixtures) => ({ method: 'GET', path: `/policies/v1/${BRAND}/policies/${ofFixture(fixtures)}`, headers: await bearer(api) }),
  },
  {
    name: 'policyDetails',
    description: 'GET /policies/v1/{brand}/policies/{policyNumber}/details: every transaction of that policy.',
    prepare: async (api, fixtures) => ({ method: 'GET', path: `/policies/v1/${BRAND}/policies/${ofFixture(fixtures)}/details`, headers: await bearer(api) }),
  },
];
