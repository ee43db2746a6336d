import type { QuoteRequest } from '../src/quotes/schemas.js';
import type { QuoteSeeder } from './change-supply.js';
import { benchPolicy, type BenchPolicy } from './policy-fixture.js';
import { purchaseSupply, type BenchPayment } from './quote-supply.js';
import type { BenchApi, BenchRequest } from './requests.js';
import type { BenchFixtures } from './seed/database.js';
import { seedQuotes } from './seed/quotes.js';

// What every bench row shares: the run it prepares for, its target, the demo partner's token and
// the supplies of ready quotes and bought policies (bench rows: scenarios*.ts).

export type Engine = 'sqlite' | 'postgres';

/** What a scenario may need to know about the run it prepares for. */
export interface BenchRun {
  readonly engine: Engine;
  readonly durationSeconds: number;
  /** Exactly this many measured requests per server instead of `durationSeconds` of load (`--requests`). */
  readonly requests?: number;
  /** Unmeasured load before the measured run (it draws on a request supply too). */
  readonly warmUpSeconds?: number;
  readonly connections: number;
  /** The database the server runs on (SQLITE_PATH or DATABASE_URL), for preparations in the bench process. */
  readonly env: Record<string, string>;
  /** Previews prepared per second of load for a change confirm (`--change-supply`), instead of the engine's default. */
  readonly changeSupplyPerSecond?: number;
  /** Ready quotes prepared per second of load for a purchase row (`--purchase-supply`), instead of the default. */
  readonly purchaseSupplyPerSecond?: number;
  /** Screenings prepared per second of load for each screening row (`--screening-supply`). */
  readonly screeningSupplyPerSecond?: number;
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
   * Run on a server whose outbox worker delivers what the requests enqueue (documents, partner
   * events; bench/server.ts): its CPU is counted until the outbox is empty. Every other row runs
   * on a server whose worker does nothing during the run.
   */
  readonly outboxWorker?: boolean;
  /**
   * Concurrent connections of this row when fewer than the run's `--connections`: a heavy report
   * (a statement month) is read by a few clients at once, and 50 in parallel would only queue.
   */
  readonly connections?: number;
  prepare(api: BenchApi, fixtures: BenchFixtures, run: BenchRun): Promise<BenchRequest>;
}

export const BRAND = 'brandau';
// A demo login (README, "Getting a token"); its partner owns the fixture policies.
export const LOGIN = { username: 'demoa.brandau@demo.example', password: 'DEMOA-brandau-demo-pass' };

/** The password grant exactly as a partner sends it. */
export function tokenRequest(): BenchRequest {
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
export function quoteBody(): string {
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

export const json = { 'content-type': 'application/json' };
export const ofFixture = (fixtures: BenchFixtures) => {
  const number = fixtures.policyNumbers[0];
  if (!number) throw new Error('no fixture policy: prepareBenchDatabase issues them');
  return number;
};

// Targets from issue 7 ("Targets"): product reads against node:http, quote create against
// Fastify, purchases in absolute purchases per second.
export const PURCHASE_TARGET = { sqlite: 800, postgres: 300 } as const;
/** Ready quotes created per second of load: twice the higher target. */
const PURCHASE_SUPPLY_PER_SECOND = 2 * Math.max(PURCHASE_TARGET.sqlite, PURCHASE_TARGET.postgres);

/**
 * Previews prepared per second of load in a change-confirm scenario (each needs a policy bought
 * and previewed through the API first, so the supply costs preparation time): above the purchase
 * rates each engine reached (a confirm does no less than a purchase).
 */
const CHANGE_SUPPLY_PER_SECOND = { sqlite: 1_500, postgres: 600 } as const;

/** Ready quotes seeded in the bench process (bench/seed/quotes.ts), as the purchase's supply is. */
export const quoteSeeder =
  (run: BenchRun, label: string): QuoteSeeder =>
  (body, count) =>
    seedQuotes(run.env, {
      brandCode: BRAND,
      login: LOGIN.username,
      body: JSON.parse(body) as QuoteRequest,
      count,
      onProgress: (done) => run.progress?.(`${label}: ${done}/${count} ready quotes`),
    });

/**
 * How many requests of a supply a row's round prepares: what `perSecond` sustains over the warm-up and
 * the measured load, or, with `--requests`, exactly the measured requests (plus the warm-up's share).
 */
export const supplyCount = (run: BenchRun, perSecond: number) =>
  Math.ceil((run.warmUpSeconds ?? 0) * perSecond) + (run.requests ?? Math.ceil(run.durationSeconds * perSecond));

export const changeCount = (run: BenchRun) =>
  supplyCount(run, run.changeSupplyPerSecond ?? CHANGE_SUPPLY_PER_SECOND[run.engine]);

/** One policy bought through the API for a row that reads or replays (bench/policy-fixture.ts). */
export const onePolicy = async (api: BenchApi, run: BenchRun, label: string): Promise<BenchPolicy> =>
  benchPolicy(api, await bearer(api), quoteSeeder(run, label));

/** Purchases of ready quotes: enough for the run at a rate well above the target; running out is reported, never hidden. */
export async function purchases(
  api: BenchApi,
  run: BenchRun,
  label: string,
  payment: BenchPayment = 'CARD',
): Promise<BenchRequest> {
  const count = supplyCount(run, run.purchaseSupplyPerSecond ?? PURCHASE_SUPPLY_PER_SECOND);
  const started = performance.now();
  const request = await purchaseSupply(api, await bearer(api), count, quoteSeeder(run, label), payment);
  run.progress?.(`${label}: ${count + 1} ready quotes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return request;
}
