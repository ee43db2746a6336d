import { newRecordId } from '../kernel/ids/ordered-ids.js';
import type { BrandCode } from '../kernel/brands.js';
import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { QuoteChangedConcurrently, QuoteNotFound, QuotePurchased, QuotePurchaseInitiated } from './errors.js';
import { evaluateQuote, type Evaluation } from './evaluation.js';
import type { QuotePorts, QuoteReferrals, QuoteReferralView, UnderwritingLoadingChoice } from './ports.js';
import type { Actor } from '../auth/principal.js';
import { findQuote, insertQuote, updateQuote } from './repository.js';
import type { QuoteRequest } from './schemas.js';
import type { QuoteRecord, StoredQuote } from './stored-quote.js';

export interface QuotesDeps {
  readonly db: Db;
  readonly ports: QuotePorts;
  readonly clock: Clock;
  /** The referral rules (src/referrals/): judged after pricing, stored with the quote. */
  readonly referrals: QuoteReferrals;
}

/** A quote as answered to a partner, amounts still in minor units (routes convert). */
export type QuoteView = Omit<
  StoredQuote,
  'id' | 'partnerId' | 'partnerCode' | 'revision' | 'pricedVersion' | 'audit'
> & {
  id?: string;
  isNew: boolean;
  audit?: StoredQuote['audit'];
  /** Extension: the referral that applies to the quote (docs/api-contract.md, "Referrals"). */
  referral?: QuoteReferralView;
};

function view(quote: StoredQuote, isNew: boolean, referral?: QuoteReferralView): QuoteView {
  const { partnerId: _p, partnerCode: _c, revision: _r, pricedVersion: _v, ...rest } = quote;
  return Object.assign({}, rest, { isNew }, referral ? { referral } : {});
}

function record(
  evaluation: Evaluation,
  body: Pick<QuoteRequest, 'clientSessionId' | 'customerUserId' | 'clientInfo'>,
  actor: Pick<Actor, 'userId' | 'username'>,
  at: string,
  audit: StoredQuote['audit'] | undefined,
  hasConfigChanged: boolean,
): QuoteRecord {
  return {
    stage: evaluation.stage,
    clientSessionId: body.clientSessionId,
    customerUserId: body.customerUserId ?? 0,
    input: evaluation.input,
    pricing: evaluation.pricing,
    validation: evaluation.validation,
    clientInfo: body.clientInfo,
    pricedVersion: evaluation.version,
    hasConfigChanged,
    evaluatedAt: at,
    audit: {
      createdAt: audit?.createdAt ?? at,
      createdByUserId: audit?.createdByUserId ?? actor.userId,
      createdByUsername: audit?.createdByUsername ?? actor.username,
      updatedAt: at,
      updatedByUserId: actor.userId,
      updatedByUsername: actor.username,
    },
  };
}

/** Creates and evaluates a quote; stores it unless `input.skipPersistence`. Server-owned body fields are ignored. */
export async function createQuote(
  deps: QuotesDeps,
  actor: Actor,
  brandCode: BrandCode,
  body: QuoteRequest,
): Promise<QuoteView> {
  const now = deps.clock();
  const evaluation = await evaluateQuote(deps.ports, { brandCode, partnerCode: actor.partnerCode, body, now });
  const values = record(evaluation, body, actor, now.toISOString(), undefined, false);
  if (body.input.skipPersistence === true) {
    const { audit: _audit, pricedVersion: _version, ...rest } = values;
    return Object.assign({}, rest, { brandCode, isNew: true, isPurchased: false, isPurchaseInitiated: false });
  }
  // 122 random bits: ids cannot be guessed or enumerated.
  const id = newRecordId();
  const judged = await deps.referrals.judge({
    brandCode,
    partnerId: actor.partnerId,
    quoteId: id,
    isNew: true,
    input: evaluation.input,
    pricing: evaluation.pricing,
    screenings: evaluation.screenings,
    now,
  });
  const owner = { id, brandCode, partnerId: actor.partnerId, partnerCode: actor.partnerCode };
  const stored = await judged.store((db) => insertQuote(db, Object.assign({}, values, owner)));
  if (!stored) throw new QuoteChangedConcurrently();
  return view(stored, true, judged.referral);
}

async function ownQuote(deps: QuotesDeps, actor: Actor, brandCode: BrandCode, id: string): Promise<StoredQuote> {
  const quote = await findQuote(deps.db, id, brandCode, actor.partnerId);
  if (!quote) throw new QuoteNotFound(id);
  return quote;
}

/**
 * Re-evaluates a stored quote with a changed body. A purchased quote, or one whose purchase is
 * running, cannot change (409). With `skipPersistence` the new evaluation is answered, not stored.
 */
export async function reviseQuote(
  deps: QuotesDeps,
  actor: Actor,
  brandCode: BrandCode,
  id: string,
  body: QuoteRequest,
): Promise<QuoteView> {
  const current = await ownQuote(deps, actor, brandCode, id);
  if (current.isPurchased) throw new QuotePurchased();
  if (current.isPurchaseInitiated) throw new QuotePurchaseInitiated();
  const now = deps.clock();
  const evaluate = (underwritingLoading?: UnderwritingLoadingChoice) =>
    evaluateQuote(deps.ports, {
      brandCode,
      partnerCode: actor.partnerCode,
      body,
      currentStage: current.stage,
      now,
      quoteId: id,
      ...(underwritingLoading ? { underwritingLoading } : {}),
    });
  const recordOf = (evaluated: Evaluation) =>
    record(evaluated, body, actor, now.toISOString(), current.audit, current.pricedVersion !== evaluated.version);
  let evaluation = await evaluate();
  if (body.input.skipPersistence === true) {
    const values = recordOf(evaluation);
    return Object.assign(view(Object.assign({}, current, values), false), { audit: current.audit });
  }
  const judged = await deps.referrals.judge({
    brandCode,
    partnerId: actor.partnerId,
    quoteId: id,
    isNew: false,
    input: evaluation.input,
    pricing: evaluation.pricing,
    screenings: evaluation.screenings,
    now,
  });
  // An approval's loading still in force: priced again with it (rare: only approved quotes).
  if (judged.loading) evaluation = await evaluate(judged.loading);
  const values = recordOf(evaluation);
  const stored = await judged.store((db) => updateQuote(db, id, current.revision, values));
  if (!stored) {
    const latest = await ownQuote(deps, actor, brandCode, id);
    throw latest.isPurchased ? new QuotePurchased() : new QuoteChangedConcurrently();
  }
  return view(stored, false, judged.referral);
}

/** The stored quote; `hasConfigChanged` says whether the version that priced it is still in force. */
export async function readQuote(deps: QuotesDeps, actor: Actor, brandCode: BrandCode, id: string): Promise<QuoteView> {
  const quote = await ownQuote(deps, actor, brandCode, id);
  const [version, referral] = await Promise.all([
    deps.ports.catalogue.versionInForce(brandCode, deps.clock()),
    deps.referrals.viewOf(quote),
  ]);
  return Object.assign(view(quote, false, referral), { hasConfigChanged: quote.pricedVersion !== version });
}

/**
 * A stored quote priced again as it is with an underwriter's loading (referrals/decisions.ts):
 * the same input and stage; the record to write, its author unchanged.
 */
export async function repricedRecord(
  deps: Pick<QuotesDeps, 'ports' | 'clock'>,
  quote: StoredQuote,
  underwritingLoading: UnderwritingLoadingChoice | undefined,
): Promise<QuoteRecord> {
  const now = deps.clock();
  const evaluation = await evaluateQuote(deps.ports, {
    brandCode: quote.brandCode as BrandCode,
    partnerCode: quote.partnerCode,
    body: { input: quote.input, stage: quote.stage },
    currentStage: quote.stage,
    now,
    quoteId: quote.id,
    ...(underwritingLoading ? { underwritingLoading } : {}),
  });
  const at = now.toISOString();
  return {
    ...record(
      evaluation,
      { clientSessionId: quote.clientSessionId, customerUserId: quote.customerUserId, clientInfo: quote.clientInfo },
      { userId: quote.audit.updatedByUserId, username: quote.audit.updatedByUsername },
      at,
      quote.audit,
      false,
    ),
    hasConfigChanged: quote.hasConfigChanged,
  };
}
