import { randomBytes } from 'node:crypto';
import { APPROVED_CARD, planFacts, purchaseSupply, readyQuoteBody } from './quote-supply.js';
import type { BenchApi, BenchRequest, RequestSupply } from './requests.js';

/**
 * Policies to change, for the policy-change scenarios. A preview is confirmed once and a policy
 * changed since its preview refuses the confirm (`…_STALE`), so every confirm of a run needs its
 * own preview on its own policy: the policies are bought through the API (ready quotes seeded as
 * for the purchase, each bought with the sandbox approve card, so a refund has a captured payment
 * to go back to) and previewed through the API before the clock starts; only the confirm is timed.
 */

const BRAND = 'brandau';
const json = { 'content-type': 'application/json' };
/** Requests in flight while preparing: enough for the server's group commit to batch them. */
const PREPARING = 32;

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const policyPath = (policyNumber: string) => `/policies/v1/${BRAND}/policies/${policyNumber}`;

export type ChangeKind = 'amendments' | 'cancellations';

/** Seeds `count` ready quotes of the body it is given (bench/seed/quotes.ts), answering their ids. */
export type QuoteSeeder = (body: string, count: number) => Promise<string[]>;

/** `fn` over `items`, `concurrency` at a time, answers in the items' order. */
async function eachInFlight<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const at = next++;
        answers[at] = await fn(items[at]!);
      }
    }),
  );
  return answers;
}

/** The ready quote's trip (departs in 30 days, returns on day 43) coming back a week later: a charge. */
export async function extendedTripBody(api: BenchApi, headers: Record<string, string>): Promise<string> {
  const { input } = JSON.parse(readyQuoteBody((await planFacts(api, headers)).planId)) as {
    input: Record<string, unknown>;
  };
  return JSON.stringify({ input: { ...input, returnDate: isoDay(50) } });
}

/** The cancellation every bench policy can take: before departure, inside cooling-off (a full refund). */
export const CANCELLATION_BODY = JSON.stringify({ reasonCode: 'TRIP_CANCELLED' });

/** `count` policies bought through the API with the approve card. */
export async function boughtPolicies(
  api: BenchApi,
  headers: Record<string, string>,
  count: number,
  seed: QuoteSeeder,
): Promise<string[]> {
  const purchase = await purchaseSupply(api, headers, Math.max(count - 1, 1), seed);
  const bodies = [purchase.body!, ...Array.from({ length: count - 1 }, () => purchase.supply!.next().body!)];
  return eachInFlight(bodies, PREPARING, async (body) => {
    const res = await api.call({ ...purchase, body });
    const answer = JSON.parse(res.body) as { paymentResult?: string; quote?: { policyNumber?: string } };
    const number = answer.quote?.policyNumber;
    if (res.status !== 200 || answer.paymentResult !== 'APPROVED' || !number)
      throw new Error(`bench policy purchase: ${res.status} ${res.body.slice(0, 2000)}`);
    return number;
  });
}

/** A preview request of `kind` on `policyNumber` (the amendment's body from `extendedTripBody`). */
export function previewRequest(
  headers: Record<string, string>,
  policyNumber: string,
  kind: ChangeKind,
  body: string,
): BenchRequest {
  return { method: 'POST', path: `${policyPath(policyNumber)}/${kind}`, headers: { ...headers, ...json }, body };
}

/** Previews the change on each policy; answers each confirm's path. */
async function previewed(api: BenchApi, requests: BenchRequest[], kind: ChangeKind): Promise<string[]> {
  return eachInFlight(requests, PREPARING, async (request) => {
    const res = await api.call(request);
    const answer = JSON.parse(res.body) as { id?: string; validation?: { isValid?: boolean }; refundBasis?: string };
    const unexpected = kind === 'cancellations' && answer.refundBasis !== 'COOLING_OFF';
    if (res.status !== 200 || !answer.id || answer.validation?.isValid !== true || unexpected)
      throw new Error(`bench ${kind} preview: ${res.status} ${res.body.slice(0, 2000)}`);
    return `${request.path}/${answer.id}/confirm`;
  });
}

/**
 * A confirm request of `kind` whose `supply` hands out one confirm per prepared preview, each
 * with its own Idempotency-Key (a repeated key would replay the first answer). The request
 * itself confirms the first (the sample); once the supply is used up each further request
 * confirms the last again under a new key: 409 `…_ALREADY_CONFIRMED`, counted in `exhausted`.
 */
export async function confirmSupply(
  api: BenchApi,
  headers: Record<string, string>,
  options: { kind: ChangeKind; count: number; seed: QuoteSeeder; progress?: (line: string) => void },
): Promise<BenchRequest> {
  const { kind, count } = options;
  const started = performance.now();
  const policies = await boughtPolicies(api, headers, count + 1, options.seed);
  const bought = performance.now();
  const body = kind === 'amendments' ? await extendedTripBody(api, headers) : CANCELLATION_BODY;
  const paths = await previewed(
    api,
    policies.map((number) => previewRequest(headers, number, kind, body)),
    kind,
  );
  options.progress?.(
    `${kind}: ${count + 1} policies bought in ${((bought - started) / 1000).toFixed(1)} s, previewed in ${((performance.now() - bought) / 1000).toFixed(1)} s`,
  );
  // Letters around the one short number: digit groups joined by dashes could read as a card number (400).
  const run = [...randomBytes(12)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
  const keyed = (n: number) => ({ ...headers, ...json, 'idempotency-key': `bench-${kind}-${run}-n${n}` });
  // Amendments in the bench charge (the trip grows): the sandbox's approving card pays.
  const confirmBody = JSON.stringify(
    kind === 'amendments' ? { cardToken: { token: APPROVED_CARD, source: 'bench' } } : {},
  );
  let next = 1;
  let exhausted = 0;
  let sent = 0;
  const supply: RequestSupply = {
    size: paths.length - 1,
    get used() {
      return next - 1;
    },
    get exhausted() {
      return exhausted;
    },
    next() {
      sent += 1;
      const path = paths[next];
      if (path === undefined) {
        exhausted += 1;
        return { path: paths[paths.length - 1]!, headers: keyed(sent) };
      }
      next += 1;
      return { path, headers: keyed(sent) };
    },
  };
  return { method: 'POST', path: paths[0]!, headers: keyed(0), body: confirmBody, supply };
}
