import type { CatalogueReader } from '../catalogue/reader.js';
import { referralRulesOf, type ReferralRule } from '../catalogue/referrals.js';
import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { findQuote } from '../quotes/repository.js';
import type { QuoteScreenings } from '../quotes/ports.js';
import type { StoredQuote } from '../quotes/stored-quote.js';
import type { TravellerOutcome } from '../screening/model.js';
import type { ReferredAmendment, ReferredAmendments } from './amendment-port.js';
import { authorityOf, premiumOf, type DecisionAuthority } from './authority.js';
import { DecisionInvalid, ReferralNotFound } from './errors.js';
import type { Referral } from './model.js';
import { findReferral, openReferrals } from './repository.js';

/** What the console reads: the queue of open referrals and one referral's page (no pages here). */

export interface QueueFilters {
  readonly brandCode?: string;
  readonly reasonCode?: string;
  /** Only referrals waiting longer than this. */
  readonly olderThanHours?: number;
}

export const QUEUE_PAGE_MAX = 100;

/** Open referrals (REFERRED, INFORMATION_REQUESTED), oldest first. */
export async function referralQueue(
  deps: { readonly db: Db; readonly clock: Clock },
  filters: QueueFilters,
  page: { readonly limit: number; readonly offset?: number },
): Promise<Referral[]> {
  if (filters.reasonCode !== undefined && !/^[A-Z][A-Z0-9_]{0,39}$/.test(filters.reasonCode))
    throw new DecisionInvalid('reasonCode', 'reasonCode: capital letters, digits and _.');
  const hours = filters.olderThanHours;
  if (hours !== undefined && !(Number.isFinite(hours) && hours >= 0))
    throw new DecisionInvalid('olderThanHours', 'olderThanHours: 0 or more.');
  const referredBefore =
    hours === undefined ? undefined : new Date(deps.clock().getTime() - hours * 3_600_000).toISOString();
  return openReferrals(
    deps.db,
    {
      ...(filters.brandCode !== undefined ? { brandCode: filters.brandCode } : {}),
      ...(filters.reasonCode !== undefined ? { reasonCode: filters.reasonCode } : {}),
      ...(referredBefore !== undefined ? { referredBefore } : {}),
    },
    { limit: Math.min(Math.max(1, Math.trunc(page.limit)), QUEUE_PAGE_MAX), offset: Math.max(0, page.offset ?? 0) },
  );
}

/** A screened traveller's outcome (never the conditions: the console reads those only for roles that may). */
export interface ScreeningOutcomeOfTraveller {
  readonly travellerGuid: string;
  readonly status: string;
  readonly outcome?: TravellerOutcome;
}

export interface ReferralDetail {
  readonly referral: Referral;
  /** The referred quote; absent for an amendment's referral. */
  readonly quote?: StoredQuote;
  /** The referred amendment. */
  readonly amendment?: ReferredAmendment;
  /** The catalogue rules (of the quote's plan) whose reason codes referred the quote. */
  readonly rules: readonly ReferralRule[];
  readonly screenings: readonly ScreeningOutcomeOfTraveller[];
  /** The premium judged and who may decide at it. */
  readonly authority: DecisionAuthority;
}

export async function referralDetail(
  deps: {
    readonly db: Db;
    readonly catalogue: CatalogueReader;
    readonly screenings: QuoteScreenings;
    readonly amendments: ReferredAmendments;
  },
  id: string,
): Promise<ReferralDetail> {
  const referral = await findReferral(deps.db, id);
  if (!referral) throw new ReferralNotFound(id);
  if (referral.policyChangeId !== undefined) return amendmentDetail(deps, referral);
  const quote = await findQuote(deps.db, referral.quoteId ?? '', referral.brandCode, referral.partnerId);
  if (!quote) throw new ReferralNotFound(id);
  const snapshot = await deps.catalogue.snapshot();
  const brand = snapshot.brands.get(referral.brandCode);
  const plan = brand?.plans.find((p) => p.planId === quote.input.planId);
  const rules = brand ? referralRulesOf(brand.referrals, plan?.code) : [];
  const screenings = await deps.screenings.ofQuote(quote.id, {
    input: quote.input,
    catalogueVersion: quote.pricedVersion,
  });
  return {
    referral,
    quote,
    rules: rules.filter((r) => referral.reasonCodes.includes(r.reasonCode)),
    screenings: screenings.map((s) => ({
      travellerGuid: s.travellerGuid,
      status: s.status,
      ...(s.assessment ? { outcome: s.assessment.outcome } : {}),
    })),
    authority: await authorityOf(
      deps.catalogue,
      { brandCode: quote.brandCode, currency: quote.pricing.currencyCode },
      premiumOf(quote),
    ),
  };
}

/** An amendment's referral: the change and the rules that fired on its amended input (no screening shown). */
async function amendmentDetail(
  deps: { readonly catalogue: CatalogueReader; readonly amendments: ReferredAmendments },
  referral: Referral,
): Promise<ReferralDetail> {
  const amendment = await deps.amendments.factsOf(referral.policyChangeId ?? '');
  if (!amendment) throw new ReferralNotFound(referral.id);
  const brand = (await deps.catalogue.snapshot()).brands.get(referral.brandCode);
  const rules = brand ? referralRulesOf(brand.referrals, undefined) : [];
  return {
    referral,
    amendment,
    rules: rules.filter((r) => referral.reasonCodes.includes(r.reasonCode)),
    screenings: [],
    authority: await authorityOf(
      deps.catalogue,
      { brandCode: amendment.brandCode, currency: amendment.currency },
      amendment.premiumMinor,
    ),
  };
}
