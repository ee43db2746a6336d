import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { recordEvent } from '../events/repository.js';
import { newRecordId } from '../kernel/ids/ordered-ids.js';
import type { QuoteInput } from '../quotes/schemas.js';
import type { StoredQuote } from '../quotes/stored-quote.js';
import type { TravellerScreening } from '../screening/model.js';
import {
  NoReferralToWithdraw,
  QuoteReferralDeclined,
  QuoteReferralWithdrawn,
  QuoteReferred,
  ReferralChanged,
} from './errors.js';
import { referralEvent } from './events.js';
import { judgeInput, referralView, type JudgeDeps } from './judge.js';
import { isOpen, type ApprovalTerms, type Referral } from './model.js';
import { openReferral, referralOfQuote, updateReferral } from './repository.js';
import { appliesTo, referralFingerprint } from './rules.js';
import type { QuoteReferralView } from '../quotes/ports.js';
import type { CatalogueReader } from '../catalogue/reader.js';

/** The partner's side of referrals: what a purchase must respect, and withdrawing one. */

export interface ReferralDeps {
  readonly db: Db;
  readonly catalogue: CatalogueReader;
  readonly clock: Clock;
}

function refusal(referral: Referral): Error {
  if (referral.status === 'DECLINED') return new QuoteReferralDeclined();
  if (referral.status === 'WITHDRAWN') return new QuoteReferralWithdrawn();
  return new QuoteReferred(referral.status);
}

/**
 * Judges a quote about to be bought, before anything is recorded or charged: a referral that
 * applies and is not APPROVED refuses with a 409; so does a rule that fires now on the input
 * bought (names given only at purchase, a policy issued since the quote was judged) unless an
 * approval covers it: that opens the referral (with `quote.referred`) first. Answers the
 * approval's terms when one applies.
 */
export async function referralForPurchase(
  deps: ReferralDeps,
  request: {
    quote: StoredQuote;
    input: QuoteInput;
    screenings: readonly TravellerScreening[];
    /** The chosen plan is priced: only then are the rules judged anew (as a quote's are). */
    priced: boolean;
  },
): Promise<ApprovalTerms | undefined> {
  const { quote } = request;
  const existing = await referralOfQuote(deps.db, quote.id);
  const fingerprint = referralFingerprint(quote.input);
  const applying = appliesTo(existing, fingerprint) ? existing : undefined;
  if (applying && applying.status !== 'APPROVED') throw refusal(applying);
  const approval = applying
    ? { loadingPercentage: applying.loadingPercentage ?? 0, extraExcessMinor: applying.extraExcessMinor ?? 0 }
    : undefined;
  if (!request.priced) return approval;
  const now = deps.clock();
  const judgeDeps: JudgeDeps = { db: deps.db, catalogue: deps.catalogue };
  const { reasons, currency } = await judgeInput(judgeDeps, {
    brandCode: quote.brandCode,
    input: request.input,
    screenings: request.screenings,
    now,
  });
  const uncovered = reasons.filter((code) => !(applying?.reasonCodes ?? []).includes(code));
  if (uncovered.length > 0) {
    const at = now.toISOString();
    const opened: Referral = {
      id: existing?.id ?? newRecordId(),
      quoteId: quote.id,
      brandCode: quote.brandCode,
      partnerId: quote.partnerId,
      status: 'REFERRED',
      reasonCodes: reasons,
      fingerprint,
      referredAt: at,
      version: (existing?.version ?? 0) + 1,
    };
    await deps.db.transaction().execute(async (tx) => {
      if (!(await openReferral(tx, { ...opened, at }, existing?.version))) throw new ReferralChanged();
      const event = referralEvent(opened, currency, at);
      if (event) await recordEvent(tx, event);
    });
    throw new QuoteReferred('REFERRED');
  }
  return approval;
}

/**
 * The partner withdraws its quote's referral that still waits for an underwriter (REFERRED or
 * INFORMATION_REQUESTED): WITHDRAWN, no event (the partner did it). Answers the referral as now.
 */
export async function withdrawReferral(
  deps: Pick<ReferralDeps, 'db' | 'clock'>,
  quote: Pick<StoredQuote, 'id' | 'input'>,
): Promise<QuoteReferralView> {
  const existing = await referralOfQuote(deps.db, quote.id);
  if (!existing || !appliesTo(existing, referralFingerprint(quote.input)) || !isOpen(existing.status))
    throw new NoReferralToWithdraw(existing?.status);
  const at = deps.clock().toISOString();
  const updated = await updateReferral(deps.db, existing.id, existing.version, ['REFERRED', 'INFORMATION_REQUESTED'], {
    status: 'WITHDRAWN',
    at,
    pendingApproval: null,
    decides: false,
  });
  if (!updated) throw new NoReferralToWithdraw();
  return referralView(updated);
}
