import type { CatalogueReader } from '../catalogue/reader.js';
import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { recordEvent } from '../events/repository.js';
import { minorDigits, toMajor, toMinor } from '../kernel/money/units.js';
import { recordOperatorAction } from '../operators/audit-repository.js';
import { may, type Operator } from '../operators/model.js';
import type { QuotePorts } from '../quotes/ports.js';
import { findQuote, updateQuote } from '../quotes/repository.js';
import { repricedRecord } from '../quotes/service.js';
import type { QuoteRecord, StoredQuote } from '../quotes/stored-quote.js';
import {
  ApprovalTermsDiffer,
  DecisionInvalid,
  ReferralAlreadyDecided,
  ReferralChanged,
  ReferralNotAllowed,
  ReferralNotFound,
  SecondApproverRequired,
} from './errors.js';
import type { ReferredAmendment, ReferredAmendments } from './amendment-port.js';
import { referralEvent } from './events.js';
import { authorityOf, premiumOf, type DecisionAuthority } from './authority.js';
import { isOpen, MAX_LOADING_PERCENTAGE, OPEN_STATUSES, type Referral } from './model.js';
import { findReferral, updateReferral, type ReferralUpdate } from './repository.js';
import { appliesTo, referralFingerprint } from './rules.js';

/**
 * The underwriters' decisions (the console calls these): each checks the operator's authority
 * (`may`, the brand's limit, a second approver above the threshold) and writes the decision, the
 * partner event and the audit entry in one transaction. A referral decided (or withdrawn) already
 * is refused; of two concurrent decisions one wins, the other is refused.
 */

export interface DecisionDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly catalogue: CatalogueReader;
  /** The quotes area's catalogue and pricing: an approval prices the quote again with its loading. */
  readonly quotePorts: QuotePorts;
  /** The referred amendments' facts (policy-changes implements it). */
  readonly amendments: ReferredAmendments;
}

export interface ApproveInput {
  /** 0 to 500, at most two decimals. */
  readonly loadingPercentage: number;
  /** Added to the policy's excess: major units of the quote currency. */
  readonly extraExcess: number;
  readonly reason: string;
}

/** What an approval did: APPROVED, or the first of two approvals recorded (a second senior underwriter completes it). */
export type ApproveOutcome =
  | { readonly outcome: 'APPROVED'; readonly referral: Referral }
  | { readonly outcome: 'AWAITING_SECOND_APPROVAL'; readonly referral: Referral };

const text = (value: string, property: string): string => {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 1000)
    throw new DecisionInvalid(property, `${property}: 1 to 1000 characters.`);
  return trimmed;
};

/** What a referral is of: its stored quote, or the amendment it holds back. */
type Subject =
  | { readonly kind: 'quote'; readonly quote: StoredQuote }
  | { readonly kind: 'amendment'; readonly facts: ReferredAmendment };

/** The referral and its subject; refuses a closed or stale one and an operator without `referral.decide`. */
async function decidable(
  deps: DecisionDeps,
  operator: Operator,
  id: string,
): Promise<{ referral: Referral; subject: Subject }> {
  if (!may(operator, 'referral.decide')) throw new ReferralNotAllowed('decide');
  const referral = await findReferral(deps.db, id);
  if (!referral) throw new ReferralNotFound(id);
  if (!isOpen(referral.status)) throw new ReferralAlreadyDecided(referral.status);
  if (referral.policyChangeId !== undefined) {
    const facts = await deps.amendments.factsOf(referral.policyChangeId);
    if (!facts) throw new ReferralNotFound(id);
    return { referral, subject: { kind: 'amendment', facts } };
  }
  const quote = await findQuote(deps.db, referral.quoteId ?? '', referral.brandCode, referral.partnerId);
  if (!quote) throw new ReferralNotFound(id);
  // The quote changed without being judged again (no plan or price now): nothing to decide on.
  if (!appliesTo(referral, referralFingerprint(quote.input))) throw new ReferralChanged();
  return { referral, subject: { kind: 'quote', quote } };
}

/** The authority a subject's premium needs (a quote's as priced, or the amended policy's). */
export function subjectAuthority(deps: Pick<DecisionDeps, 'catalogue'>, subject: Subject): Promise<DecisionAuthority> {
  return subject.kind === 'quote'
    ? authorityOf(
        deps.catalogue,
        { brandCode: subject.quote.brandCode, currency: subject.quote.pricing.currencyCode },
        premiumOf(subject.quote),
      )
    : authorityOf(
        deps.catalogue,
        { brandCode: subject.facts.brandCode, currency: subject.facts.currency },
        subject.facts.premiumMinor,
      );
}

/** Refuses an operator whose role may not decide at this premium. */
function checkAuthority(operator: Operator, authority: DecisionAuthority, action: string): void {
  if (authority.needsSenior && !may(operator, 'referral.decide_above_limit')) throw new ReferralNotAllowed(action);
}

/** Writes a decision, its event and its audit entry in one transaction (and the repriced quote, if any). */
async function commitDecision(
  deps: DecisionDeps,
  operator: Operator,
  referral: Referral,
  change: ReferralUpdate,
  audit: { action: string; reason: string; after: Record<string, unknown> },
  quote?: { readonly stored: StoredQuote; readonly record: QuoteRecord },
  currency = '',
): Promise<Referral> {
  const updated = await deps.db.transaction().execute(async (tx) => {
    const written = await updateReferral(tx, referral.id, referral.version, OPEN_STATUSES, change);
    if (!written) return undefined;
    if (quote && !(await updateQuote(tx, quote.stored.id, quote.stored.revision, quote.record)))
      throw new ReferralChanged();
    const event =
      change.decides || change.status === 'INFORMATION_REQUESTED'
        ? referralEvent(written, currency, change.at)
        : undefined;
    if (event) await recordEvent(tx, event);
    await recordOperatorAction(tx, {
      operatorId: operator.id,
      action: audit.action,
      subjectType: 'referral',
      subjectId: referral.id,
      before: {
        status: referral.status,
        reasonCodes: referral.reasonCodes,
        ...(referral.quoteId === undefined ? {} : { quoteId: referral.quoteId }),
        ...(referral.policyChangeId === undefined
          ? {}
          : { policyChangeId: referral.policyChangeId, policyNumber: referral.policyNumber }),
      },
      after: audit.after,
      reason: audit.reason,
      at: change.at,
    });
    return written;
  });
  if (updated) return updated;
  const latest = await findReferral(deps.db, referral.id);
  throw latest && !isOpen(latest.status) ? new ReferralAlreadyDecided(latest.status) : new ReferralChanged();
}

export async function approveReferral(
  deps: DecisionDeps,
  operator: Operator,
  id: string,
  input: ApproveInput,
): Promise<ApproveOutcome> {
  const { referral, subject } = await decidable(deps, operator, id);
  const reason = text(input.reason, 'reason');
  const loading = input.loadingPercentage;
  // An amendment is approved as previewed: its price is fixed in the preview the partner confirms.
  if (subject.kind === 'amendment' && (loading !== 0 || input.extraExcess !== 0))
    throw new DecisionInvalid(
      input.extraExcess !== 0 ? 'extraExcess' : 'loadingPercentage',
      'An amendment is approved as previewed: no loading and no extra excess (decline it if its terms must change).',
    );
  if (
    !Number.isFinite(loading) ||
    loading < 0 ||
    loading > MAX_LOADING_PERCENTAGE ||
    Math.round(loading * 100) !== loading * 100
  )
    throw new DecisionInvalid(
      'loadingPercentage',
      `loadingPercentage: 0 to ${MAX_LOADING_PERCENTAGE}, at most two decimals.`,
    );
  const quote = subject.kind === 'quote' ? subject.quote : undefined;
  const record =
    quote && loading > 0
      ? await repricedRecord({ ports: deps.quotePorts, clock: deps.clock }, quote, {
          planId: quote.input.planId ?? 0,
          percentage: loading,
        })
      : undefined;
  const authority =
    quote && record
      ? await authorityOf(
          deps.catalogue,
          { brandCode: quote.brandCode, currency: quote.pricing.currencyCode },
          premiumOf(record),
        )
      : await subjectAuthority(deps, subject);
  const digits = minorDigits(authority.currency);
  const extraExcessMinor = toMinor(input.extraExcess, digits);
  if (
    !Number.isFinite(input.extraExcess) ||
    input.extraExcess < 0 ||
    extraExcessMinor / 10 ** digits !== input.extraExcess
  )
    throw new DecisionInvalid(
      'extraExcess',
      `extraExcess: 0 or more, at most ${digits} decimals (${authority.currency}).`,
    );
  checkAuthority(operator, authority, 'approve');
  const at = deps.clock().toISOString();
  const terms = { loadingPercentage: loading, extraExcessMinor };
  const after = { ...terms, premiumMinor: authority.premiumMinor, currency: authority.currency };
  if (authority.needsSecondApproval) {
    const pending = referral.pendingApproval;
    if (!pending) {
      const first = await commitDecision(
        deps,
        operator,
        referral,
        { status: referral.status, at, decides: false, pendingApproval: { operatorId: operator.id, ...terms, at } },
        { action: 'referral.approve_first', reason, after: { ...after, awaitingSecondApproval: true } },
      );
      return { outcome: 'AWAITING_SECOND_APPROVAL', referral: first };
    }
    if (pending.operatorId === operator.id) throw new SecondApproverRequired();
    if (pending.loadingPercentage !== loading || pending.extraExcessMinor !== extraExcessMinor)
      throw new ApprovalTermsDiffer();
  }
  const approved = await commitDecision(
    deps,
    operator,
    referral,
    { status: 'APPROVED', at, decides: true, operatorId: operator.id, ...terms, pendingApproval: null },
    {
      action: 'referral.approve',
      reason,
      after: {
        status: 'APPROVED',
        ...after,
        ...(referral.pendingApproval ? { firstApprover: referral.pendingApproval.operatorId } : {}),
      },
    },
    quote && record ? { stored: quote, record } : undefined,
    authority.currency,
  );
  return { outcome: 'APPROVED', referral: approved };
}

export async function declineReferral(
  deps: DecisionDeps,
  operator: Operator,
  id: string,
  input: { readonly reason: string },
): Promise<Referral> {
  const { referral, subject } = await decidable(deps, operator, id);
  const reason = text(input.reason, 'reason');
  const authority = await subjectAuthority(deps, subject);
  checkAuthority(operator, authority, 'decline');
  const at = deps.clock().toISOString();
  return commitDecision(
    deps,
    operator,
    referral,
    { status: 'DECLINED', at, decides: true, operatorId: operator.id, declineReason: reason, pendingApproval: null },
    { action: 'referral.decline', reason, after: { status: 'DECLINED' } },
    undefined,
    authority.currency,
  );
}

export async function requestInformation(
  deps: DecisionDeps,
  operator: Operator,
  id: string,
  input: { readonly question: string },
): Promise<Referral> {
  const { referral, subject } = await decidable(deps, operator, id);
  const question = text(input.question, 'question');
  const authority = await subjectAuthority(deps, subject);
  checkAuthority(operator, authority, 'ask for information on');
  const at = deps.clock().toISOString();
  return commitDecision(
    deps,
    operator,
    referral,
    { status: 'INFORMATION_REQUESTED', at, decides: false, informationRequested: question },
    { action: 'referral.request_information', reason: question, after: { status: 'INFORMATION_REQUESTED' } },
    undefined,
    authority.currency,
  );
}

/** Major units of a minor amount in a currency (the console shows amounts so). */
export const majorOf = (minor: number, currency: string): number => toMajor(minor, minorDigits(currency));
