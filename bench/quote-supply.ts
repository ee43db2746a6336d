import type { BenchApi, BenchRequest, RequestSupply } from './requests.js';

/**
 * Ready-to-buy quotes for the purchase scenario. A quote is bought once, so every purchase of a
 * run needs its own: they are made before the clock starts as a partner makes a quote buyable
 * (plan chosen, stage DETAILS with every holder's details and the purchase terms agreed, see
 * src/purchases/readiness.ts) and handed out one per request.
 */

const BRAND = 'brandau';
const PARTNER = 'DEMOA';
const json = { 'content-type': 'application/json' };
export const APPROVED_CARD = 'tok_sandbox_approved';

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** The Bali trip (two adults and a dependent, 14 days, two options) with the details stage DETAILS needs. */
export function readyQuoteBody(planId: number): string {
  return JSON.stringify({
    stage: 'DETAILS',
    input: {
      quoteType: 'SINGLETRIP',
      planId,
      homeAddress: { countryCode: 'AUS', provinceCode: 'NSW', addressLine1: '1 George St', postalCode: '2000' },
      destinationCountryCodes: ['IDN'],
      departureDate: isoDay(30),
      returnDate: isoDay(43),
      policyHolders: [
        {
          guid: 'adult-1',
          dateOfBirth: '1984-05-02',
          isPrimary: true,
          firstName: 'Ada',
          lastName: 'Lovelace',
          emailAddress: 'ada@example.com',
          phoneNumber: '+61 400 000 000',
        },
        { guid: 'adult-2', dateOfBirth: '1986-03-15', firstName: 'Charles', lastName: 'Babbage' },
        { guid: 'child-1', dateOfBirth: '2017-08-09', isDependent: true, firstName: 'Byron', lastName: 'Lovelace' },
      ],
      basicOptions: [
        { optionType: 'CRUISE', isOptedIn: true },
        { optionType: 'SNOWSPORTS', isOptedIn: true },
      ],
    },
  });
}

interface PlanFacts {
  readonly planId: number;
  readonly declarations: { termConditionId: number; hasAgreed: true }[];
}

/** The COMP plan in force and the purchase terms the buyer must agree to (spec §4.5). */
export async function planFacts(api: BenchApi, headers: Record<string, string>): Promise<PlanFacts> {
  const res = await api.call({
    method: 'GET',
    path: `/products/v1/${BRAND}/plans?planCode=COMP&partnerCode=${PARTNER}`,
    headers,
  });
  if (res.status !== 200) throw new Error(`plan: ${res.status} ${res.body}`);
  const plan = JSON.parse(res.body) as {
    planId: number;
    purchaseTermsAndConditions: { termConditionId: number; policyActionTypeId: number }[];
  };
  return {
    planId: plan.planId,
    declarations: plan.purchaseTermsAndConditions
      .filter((t) => t.policyActionTypeId === 1)
      .map((t) => ({ termConditionId: t.termConditionId, hasAgreed: true as const })),
  };
}

/** One ready quote through the API, as a partner makes it. */
export async function createReadyQuote(
  api: BenchApi,
  headers: Record<string, string>,
  body: string,
): Promise<Record<string, unknown> & { id: string }> {
  const res = await api.call({
    method: 'POST',
    path: `/quotes/v2/${BRAND}/quote`,
    headers: { ...headers, ...json },
    body,
  });
  const quote = JSON.parse(res.body) as Record<string, unknown> & {
    id?: string;
    stage?: string;
    validation?: { isValid?: boolean };
  };
  if (res.status !== 200 || !quote.id || quote.stage !== 'DETAILS' || quote.validation?.isValid !== true)
    throw new Error(`ready quote: ${res.status} ${res.body.slice(0, 2000)}`);
  return { ...quote, id: quote.id };
}

/** What a seeded quote must share with the API's (ids, times and audit differ by nature). */
const comparable = (quote: Record<string, unknown>) =>
  JSON.stringify({
    stage: quote.stage,
    input: quote.input,
    prices: quote.prices,
    validation: quote.validation,
    isPurchased: quote.isPurchased,
  });

/** The purchase request body of one quote: the declarations agreed, the sandbox's approving card. */
/** How a bench purchase pays: the sandbox's approved card, or the demo partner's account (DEMOA may buy on account). */
export type BenchPayment = 'CARD' | 'ON_ACCOUNT';

export function purchaseBody(
  quoteId: string,
  declarations: PlanFacts['declarations'],
  payment: BenchPayment = 'CARD',
): string {
  return JSON.stringify({
    quote: { id: quoteId, input: { regulatoryDeclarations: declarations } },
    ...(payment === 'CARD'
      ? { cardToken: { token: APPROVED_CARD, source: 'bench' } }
      : { paymentMethod: 'ON_ACCOUNT' }),
  });
}

/**
 * `count` ready quotes and a purchase request whose `supply` hands each out once. The request
 * itself buys the first one, created through the API (the sample); the others are created in
 * the bench process by the same quotes service (`seedQuotes`), and one of them is read back
 * through the API and must equal the API's quote. Once the supply is used up, each further
 * request buys the last quote again: the server answers 409 QUOTE_PURCHASED, the load counts
 * it as non-2xx and `supply.exhausted` says how many there were.
 */
export async function purchaseSupply(
  api: BenchApi,
  headers: Record<string, string>,
  count: number,
  seed: (body: string, count: number) => Promise<string[]>,
  payment: BenchPayment = 'CARD',
): Promise<BenchRequest> {
  const facts = await planFacts(api, headers);
  const body = readyQuoteBody(facts.planId);
  const sample = await createReadyQuote(api, headers, body);
  const seeded = await seed(body, count);
  const check = await api.call({
    method: 'GET',
    path: `/quotes/v2/${BRAND}/quote/${seeded[seeded.length - 1] ?? ''}`,
    headers,
  });
  if (check.status !== 200 || comparable(JSON.parse(check.body) as Record<string, unknown>) !== comparable(sample)) {
    throw new Error(
      `a seeded quote differs from the API's:\n${check.body.slice(0, 2000)}\n${JSON.stringify(sample).slice(0, 2000)}`,
    );
  }
  const bodies = [sample.id, ...seeded].map((id) => purchaseBody(id, facts.declarations, payment));
  let next = 1;
  let exhausted = 0;
  const supply: RequestSupply = {
    size: seeded.length,
    get used() {
      return next - 1;
    },
    get exhausted() {
      return exhausted;
    },
    next() {
      const body = bodies[next];
      if (body === undefined) {
        exhausted += 1;
        return { body: bodies[bodies.length - 1]! };
      }
      next += 1;
      return { body };
    },
  };
  return {
    method: 'POST',
    path: `/quotes/v2/${BRAND}/purchase`,
    headers: { ...headers, ...json },
    body: bodies[0]!,
    supply,
  };
}
