import type { CatalogueReader } from '../catalogue/reader.js';
import type { Executor, Tx } from '../db/database.js';
import { recordEvent } from '../events/repository.js';
import type { BrandCode } from '../kernel/brands.js';
import { findPolicy } from '../policies/repository.js';
import { findQuote } from '../quotes/repository.js';
import { newRecordId } from '../kernel/ids/ordered-ids.js';
import type { QuoteReferralView } from '../quotes/ports.js';
import type { QuoteInput } from '../quotes/schemas.js';
import type { ReferredAmendment, ReferredAmendments } from '../referrals/amendment-port.js';
import { referralEvent } from '../referrals/events.js';
import { judgeInput, referralView } from '../referrals/judge.js';
import type { Referral } from '../referrals/model.js';
import { latestApprovalOfPolicy, openReferral, referralOfChange } from '../referrals/repository.js';
import { referralFingerprint } from '../referrals/rules.js';
import type { TravellerScreening } from '../screening/model.js';
import type { Refusal } from './errors.js';
import type { PolicyChange } from './model.js';
import { findChangeById, latestAmendedInput } from './repository.js';

/**
 * Amendment referrals (issue 31): an amendment's next input is judged by the brand's referral
 * rules as a quote is; a rule that fires, unless the policy's latest approval of the same
 * fingerprint covers it, refers the amendment: it cannot be confirmed until an underwriter
 * approves it. The referral is opened in the preview's own transaction.
 */

export interface AmendmentJudgement {
  readonly referral: Referral;
  readonly currency: string;
}

export async function judgeAmendment(
  deps: { readonly db: Executor; readonly catalogue: CatalogueReader },
  request: {
    readonly brandCode: string;
    readonly partnerId: number;
    readonly policy: { readonly quoteId: string; readonly policyNumber: string };
    readonly input: QuoteInput;
    readonly screenings: readonly TravellerScreening[];
    readonly now: Date;
  },
): Promise<AmendmentJudgement | undefined> {
  const { reasons, currency } = await judgeInput(deps, {
    brandCode: request.brandCode,
    input: request.input,
    screenings: request.screenings,
    now: request.now,
    excludePolicyNumber: request.policy.policyNumber,
  });
  if (reasons.length === 0) return undefined;
  const fingerprint = referralFingerprint(request.input);
  const approval = await latestApprovalOfPolicy(deps.db, request.policy, fingerprint);
  if (approval && reasons.every((code) => approval.reasonCodes.includes(code))) return undefined;
  const at = request.now.toISOString();
  return {
    currency,
    referral: {
      id: newRecordId(),
      policyNumber: request.policy.policyNumber,
      brandCode: request.brandCode,
      partnerId: request.partnerId,
      status: 'REFERRED',
      reasonCodes: reasons,
      fingerprint,
      referredAt: at,
      version: 1,
    },
  };
}

/** Opens the judged referral for the change just inserted, with `policy.amendment_referred`. */
export async function openAmendmentReferral(
  tx: Tx,
  judged: AmendmentJudgement,
  policyChangeId: string,
): Promise<QuoteReferralView> {
  const referral: Referral = { ...judged.referral, policyChangeId };
  await openReferral(tx, { ...referral, at: referral.referredAt });
  const event = referralEvent(referral, judged.currency, referral.referredAt);
  if (event) await recordEvent(tx, event);
  return referralView(referral);
}

/** The change's referral as its answers show it, if it was referred. */
export async function amendmentReferralView(
  db: Executor,
  policyChangeId: string,
): Promise<QuoteReferralView | undefined> {
  const referral = await referralOfChange(db, policyChangeId);
  return referral ? referralView(referral) : undefined;
}

/** Whether the change's referral lets it be confirmed: open or declined refuses (nothing is held or charged). */
export async function referralRefusal(db: Executor, policyChangeId: string): Promise<Refusal | undefined> {
  const referral = await referralOfChange(db, policyChangeId);
  if (!referral || referral.status === 'APPROVED') return undefined;
  const referralStatus = referral.status;
  return referralStatus === 'DECLINED' || referralStatus === 'WITHDRAWN'
    ? { refused: 'referral-declined', referralStatus }
    : { refused: 'referred', referralStatus };
}

/** A line per trip fact the amendment changes (no names or health data: counts and trip facts only). */
function changesOf(before: QuoteInput | undefined, after: QuoteInput): string[] {
  const facts = (input: QuoteInput | undefined): Record<string, string> => ({
    Destinations: (input?.destinationCountryCodes ?? []).join(', '),
    Departure: input?.departureDate ?? '',
    Return: input?.returnDate ?? '',
    'Cover end': input?.coverEndDate ?? '',
    Travellers: String(input?.policyHolders?.length ?? 0),
    'Trip value': input?.tripValue == null ? '' : String(input.tripValue),
    Options: (input?.basicOptions ?? [])
      .filter((o) => o.isOptedIn === true)
      .map((o) => o.optionType ?? '')
      .join(', '),
  });
  const was = facts(before);
  return Object.entries(facts(after))
    .filter(([key, value]) => was[key] !== value)
    .map(([key, value]) => (before ? `${key}: ${was[key] || '—'} → ${value || '—'}` : `${key}: ${value || '—'}`));
}

/** The policy's input before the change: its latest applied amendment's, else its quote's. */
async function inputBefore(db: Executor, change: PolicyChange): Promise<QuoteInput | undefined> {
  const amended = await latestAmendedInput(db, change.policyHeaderId);
  if (amended) return amended;
  const lookup = { brandCode: change.brandCode as BrandCode, partnerId: change.partnerId };
  const policy = await findPolicy(db, { policyNumber: change.policyNumber, ...lookup });
  return policy && (await findQuote(db, policy.quoteId, lookup.brandCode, lookup.partnerId))?.input;
}

/** The referrals area's view of a referred amendment (the console's decisions read it). */
export function amendmentFactsFor(db: Executor): ReferredAmendments {
  return {
    async factsOf(policyChangeId: string): Promise<ReferredAmendment | undefined> {
      const change = await findChangeById(db, policyChangeId);
      if (!change || change.pricing.kind !== 'AMENDMENT') return undefined;
      const before = await inputBefore(db, change);
      return {
        policyChangeId,
        policyNumber: change.policyNumber,
        brandCode: change.brandCode,
        partnerId: change.partnerId,
        currency: change.currency,
        premiumMinor: change.pricing.repriced.total,
        amountMinor: change.amountMinor,
        state: change.state,
        expiresAt: change.expiresAt,
        changes: changesOf(before, change.pricing.input),
      };
    },
  };
}
