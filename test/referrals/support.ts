import { expect } from 'vitest';
import { catalogueOf } from '../../src/catalogue/service.js';
import type { Operator } from '../../src/operators/model.js';
import { amendmentFactsFor } from '../../src/policy-changes/referrals.js';
import { quotePortsFor } from '../../src/quotes/live-ports.js';
import type { DecisionDeps } from '../../src/referrals/decisions.js';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { detailedTrip, planOf } from '../purchases/support.js';

export const UNDERWRITER: Operator = { id: 901, username: 'uma', displayName: 'Uma', role: 'UNDERWRITER' };
export const SENIOR: Operator = { id: 902, username: 'sam', displayName: 'Sam', role: 'SENIOR_UNDERWRITER' };
export const SENIOR_TWO: Operator = { id: 903, username: 'sol', displayName: 'Sol', role: 'SENIOR_UNDERWRITER' };
export const SUPPORT: Operator = { id: 904, username: 'sue', displayName: 'Sue', role: 'SUPPORT' };

export function decisionDeps(t: TestApp): DecisionDeps {
  return {
    db: t.context.db,
    clock: t.context.clock,
    catalogue: catalogueOf(t.context),
    quotePorts: quotePortsFor(t.context),
    amendments: amendmentFactsFor(t.context.db),
  };
}

export interface ReferralAnswer {
  status: string;
  reasonCodes: string[];
  referredAt: string;
  decidedAt?: string;
  loadingPercentage?: number;
  extraExcess?: number;
  declineReason?: string;
  informationRequested?: string;
}

export interface QuoteAnswer {
  id: string;
  stage: string;
  validation: { isValid: boolean };
  prices: { planId: number; totalPrice: number; basicOptionPrices?: { optionType?: string; price?: number }[] }[];
  referral?: ReferralAnswer;
}

/**
 * A brandau COMP quote at DETAILS to a watched destination (Venezuela: referrals.yaml), so the
 * rule DESTINATION_WATCHED refers it. `put` changes its input; `get` reads it back.
 */
export async function referredQuote(t: TestApp, destinations: string[] = ['VEN']) {
  const headers = await bearerFor(t, 'brandau', 'A');
  const plan = await planOf(t, 'brandau', 'COMP');
  const input = { ...detailedTrip(plan.planId), destinationCountryCodes: destinations };
  const created = await t.app.inject({ method: 'POST', url: '/quotes/v2/brandau/quote', headers, payload: { input } });
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json<QuoteAnswer>().id;
  const put = async (changes: object = {}) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/quotes/v2/brandau/quote/${id}`,
      headers,
      payload: { stage: 'DETAILS', input: { ...input, ...changes } },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<QuoteAnswer>();
  };
  const get = async () => {
    const res = await t.app.inject({ method: 'GET', url: `/quotes/v2/brandau/quote/${id}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<QuoteAnswer>();
  };
  const detailed = await put();
  expect(detailed.stage).toBe('DETAILS');
  const price = detailed.prices.find((p) => p.planId === plan.planId)?.totalPrice ?? 0;
  return { id, plan, input, put, get, price, quote: detailed };
}

/** The id of the quote's referral (the console finds it in the queue). */
export async function referralIdOf(t: TestApp, quoteId: string): Promise<string> {
  const row = await t.context.db
    .selectFrom('referral')
    .select('public_id')
    .where('quote_id', '=', quoteId)
    .executeTakeFirstOrThrow();
  return row.public_id;
}
