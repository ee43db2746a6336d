import { SEARCH_KINDS } from '../src/policy-search/service.js';
import { cyclingSupply, sampleSearchTerms, searchPath } from './console-terms.js';
import type { BenchApi, BenchRequest } from './requests.js';
import type { Scenario } from './scenario.js';
import { addReferrals, BENCH_OPERATOR, ensureBenchOperator } from './seed/referrals.js';

// Console pages (issue 31: each under 100 ms at 1M policies): the bench's underwriter signs in
// through the sign-in form like a browser (cookie and the form's `_csrf`), then reads a page.

const cookieOf = (response: Response): string | undefined =>
  response.headers
    .getSetCookie()
    .find((c) => /^(__Host-)?console=/.test(c))
    ?.split(';')[0];

/** A signed-in session's cookie header for the bench's underwriter. */
export async function consoleSession(api: BenchApi, env: Record<string, string>): Promise<Record<string, string>> {
  await ensureBenchOperator(env);
  const page = await fetch(`${api.url}/console/sign-in`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  const first = cookieOf(page);
  if (!csrf || !first) throw new Error(`console sign-in page: ${page.status}, no cookie or _csrf`);
  const signedIn = await fetch(`${api.url}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: first },
    body: new URLSearchParams({ ...BENCH_OPERATOR, _csrf: csrf }).toString(),
  });
  if (signedIn.status !== 303) throw new Error(`console sign-in: ${signedIn.status} ${await signedIn.text()}`);
  return { cookie: cookieOf(signedIn) ?? first };
}

/** Referrals the queue shows when the database has none yet (a small run): 40, half open. */
async function ensureReferrals(api: BenchApi, env: Record<string, string>, headers: Record<string, string>) {
  const request: BenchRequest = { method: 'GET', path: '/console/referrals', headers };
  const page = await api.call(request);
  if (!page.body.includes('/console/referrals/')) await addReferrals(env, 40);
}

export const CONSOLE_SCENARIOS: Scenario[] = [
  {
    name: 'consoleReferralQueue',
    description:
      "GET /console/referrals: the referral queue's first page, oldest first, for a signed-in underwriter (an HTML page; at scale about one open referral per 500 stored policies).",
    prepare: async (api, _fixtures, run) => {
      const headers = await consoleSession(api, run.env);
      await ensureReferrals(api, run.env, headers);
      return { method: 'GET', path: '/console/referrals', headers };
    },
  },
  {
    name: 'consolePolicySearch',
    description:
      "GET /console/policies?by=…&q=…: the policy search's first page, going round the five keys (policy number, traveller surname, e-mail, booking reference, partner) with terms of stored policies spread over the table.",
    prepare: async (api, _fixtures, run) => {
      const headers = await consoleSession(api, run.env);
      const terms = await sampleSearchTerms(run.env, 100);
      // Round the keys: number, surname, e-mail, reference, partner, number, …
      const longest = Math.max(...SEARCH_KINDS.map((k) => terms[k].length));
      const paths = Array.from({ length: longest }, (_, i) =>
        SEARCH_KINDS.map((k) => searchPath(k, terms[k][i % terms[k].length]!)),
      ).flat();
      return { method: 'GET', path: paths[0]!, headers, supply: cyclingSupply(paths) };
    },
  },
];
