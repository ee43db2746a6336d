import type { ScreeningEngineFor } from './live-engine.js';
import { screenedDurationDays, tripFingerprintOf } from './fingerprint.js';
import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import type { BrandCode } from '../kernel/brands.js';
import { randomToken } from '../kernel/crypto/random-token.js';
import { newRecordId } from '../kernel/ids/ordered-ids.js';
import type { Actor } from '../auth/principal.js';
import { QuoteNotFound, QuotePurchased, QuotePurchaseInitiated } from '../quotes/errors.js';
import type { QuoteCatalogue } from '../quotes/ports.js';
import { findQuote } from '../quotes/repository.js';
import type { StoredQuote } from '../quotes/stored-quote.js';
import {
  AnswerRefused,
  NotOptedInForScreening,
  PlanNotChosen,
  ScreeningChangedConcurrently,
  ScreeningIncomplete,
  ScreeningNotInProgress,
  ScreeningNotOffered,
  ScreeningNotStarted,
  TravellerNotFound,
} from './errors.js';
import type { ScreeningEngine, ScreeningQuestion, ScreeningTrip } from './model.js';
import { findScreening, replaceScreening, saveAnswers, saveResult } from './repository.js';
import type { AuthorizedPerson, ScreeningResult, ScreeningStatus, StoredScreening } from './screening.js';

export interface ScreeningDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** KEY_ENCRYPTION_SECRET: seals answers, the authorized person and the assessed conditions. */
  readonly secret: string;
  /** The engine of the catalogue version that priced the quote. */
  readonly engineFor: ScreeningEngineFor;
  readonly catalogue: Pick<QuoteCatalogue, 'plans'>;
  /** The questions' language when not the quote's (the hosted page's link chooses one). */
  readonly language?: string;
}

/** A screening as the API and the quote integration see it. */
export interface ScreeningView {
  readonly id: string;
  readonly travellerGuid: string;
  readonly status: ScreeningStatus;
  readonly currencyCode: string;
  readonly authorizedPerson?: AuthorizedPerson;
  /** IN_PROGRESS: what to ask next (empty when complete may run). */
  readonly questions: readonly ScreeningQuestion[];
  readonly result?: ScreeningResult;
}

interface Context {
  readonly quote: StoredQuote;
  readonly trip: ScreeningTrip;
  readonly fingerprint: string;
  readonly engine: ScreeningEngine;
}

function holderOf(quote: StoredQuote, guid: string) {
  const holder = quote.input.policyHolders?.find((h) => h.guid === guid);
  if (!holder) throw new TravellerNotFound();
  return holder;
}

async function contextOf(deps: ScreeningDeps, actor: Actor, brandCode: BrandCode, quoteId: string, guid: string) {
  const quote = await findQuote(deps.db, quoteId, brandCode, actor.partnerId);
  if (!quote) throw new QuoteNotFound(quoteId);
  holderOf(quote, guid);
  const input = quote.input;
  if (!input.planId) throw new PlanNotChosen();
  const plans = await deps.catalogue.plans(brandCode, input.quoteType ?? 'SINGLETRIP');
  const plan = plans.find((p) => p.planId === input.planId);
  if (!plan) throw new PlanNotChosen();
  const trip: ScreeningTrip = {
    brandCode,
    planCode: plan.code,
    destinationCodes: input.destinationCountryCodes ?? [],
    durationDays: screenedDurationDays(input),
    currencyCode: quote.pricing.currencyCode ?? '',
    language: deps.language ?? (input.cultureCode ?? 'en').slice(0, 2).toLowerCase(),
  };
  const context: Context = {
    quote,
    trip,
    fingerprint: tripFingerprintOf(quote.input, guid) ?? '',
    engine: await deps.engineFor(quote.pricedVersion),
  };
  return context;
}

function view(c: Context, s: StoredScreening): ScreeningView {
  const stale = s.tripFingerprint !== c.fingerprint || s.catalogueVersion !== c.quote.pricedVersion;
  const status: ScreeningStatus = stale ? 'STALE' : s.status;
  return {
    id: s.id,
    travellerGuid: s.travellerGuid,
    status,
    currencyCode: s.currencyCode,
    ...(s.authorizedPerson ? { authorizedPerson: s.authorizedPerson } : {}),
    questions: status === 'IN_PROGRESS' ? c.engine.nextQuestions(c.trip, s.answers) : [],
    ...(s.result && !stale ? { result: s.result } : {}),
  };
}

function refuseClosedQuote(quote: StoredQuote): void {
  if (quote.isPurchased) throw new QuotePurchased();
  if (quote.isPurchaseInitiated) throw new QuotePurchaseInitiated();
}

async function screenable(deps: ScreeningDeps, actor: Actor, brandCode: BrandCode, quoteId: string, guid: string) {
  const c = await contextOf(deps, actor, brandCode, quoteId, guid);
  refuseClosedQuote(c.quote);
  if (!c.engine.isOffered(brandCode, c.trip.planCode)) throw new ScreeningNotOffered();
  if (holderOf(c.quote, guid).travelClearOption?.isOptedInForScreening !== true) throw new NotOptedInForScreening();
  return c;
}

/** What of the quote a screening may start on (the same refusals as a start): the hosted link's checks. */
export async function screenableTraveller(
  deps: ScreeningDeps,
  actor: Actor,
  brandCode: BrandCode,
  quoteId: string,
  guid: string,
) {
  const c = await screenable(deps, actor, brandCode, quoteId, guid);
  const holder = holderOf(c.quote, guid);
  return {
    departureDate: c.quote.input.departureDate,
    language: c.trip.language,
    traveller: {
      firstName: holder.firstName ?? '',
      surname: holder.lastName ?? '',
      dateOfBirth: holder.dateOfBirth ?? '',
      email: holder.emailAddress ?? '',
      phone: holder.phoneNumber ?? '',
    },
  };
}

/** Starts (or restarts, replacing the earlier one) a traveller's screening. */
export async function startScreening(
  deps: ScreeningDeps,
  actor: Actor,
  brandCode: BrandCode,
  quoteId: string,
  guid: string,
  authorizedPerson: AuthorizedPerson,
): Promise<ScreeningView> {
  const c = await screenable(deps, actor, brandCode, quoteId, guid);
  const at = deps.clock().toISOString();
  await replaceScreening(deps.db, deps.secret, {
    id: newRecordId(),
    quoteId,
    partnerId: actor.partnerId,
    travellerGuid: guid,
    status: 'IN_PROGRESS',
    catalogueVersion: c.quote.pricedVersion,
    tripFingerprint: c.fingerprint,
    currencyCode: c.trip.currencyCode,
    authorizedPerson,
    createdAt: at,
  });
  return readOwn(deps, c, guid);
}

async function readOwn(deps: ScreeningDeps, c: Context, guid: string): Promise<ScreeningView> {
  const s = await findScreening(deps.db, deps.secret, c.quote.id, guid);
  if (!s) throw new ScreeningNotStarted();
  return view(c, s);
}

/** The traveller's screening as it stands: IN_PROGRESS with questions, COMPLETED with its result, or STALE. */
export async function readScreening(
  deps: ScreeningDeps,
  actor: Actor,
  brandCode: BrandCode,
  quoteId: string,
  guid: string,
): Promise<ScreeningView> {
  return readOwn(deps, await contextOf(deps, actor, brandCode, quoteId, guid), guid);
}

/** The screening if it may take answers; `read` when the caller has just read it. */
async function inProgress(
  deps: ScreeningDeps,
  c: Context,
  guid: string,
  read?: StoredScreening,
): Promise<StoredScreening> {
  refuseClosedQuote(c.quote);
  const s = read ?? (await findScreening(deps.db, deps.secret, c.quote.id, guid));
  if (!s) throw new ScreeningNotStarted();
  const status = view(c, s).status;
  if (status !== 'IN_PROGRESS') throw new ScreeningNotInProgress(status);
  return s;
}

/** Adds answers (a later answer to the same question replaces the earlier one); the engine checks them all. */
export async function answerScreening(
  deps: ScreeningDeps,
  actor: Actor,
  brandCode: BrandCode,
  quoteId: string,
  guid: string,
  answers: readonly { questionId: string; choiceCodes: readonly string[] }[],
): Promise<ScreeningView> {
  const c = await contextOf(deps, actor, brandCode, quoteId, guid);
  const s = await inProgress(deps, c, guid);
  const merged: Record<string, readonly string[]> = { ...s.answers };
  for (const a of answers) merged[a.questionId] = a.choiceCodes;
  const problems = c.engine.checkAnswers(c.trip, merged);
  const [problem] = problems;
  if (problem) {
    // The request's last answer to that question (a later one replaces an earlier); none: a stored one.
    const index = answers.map((a) => a.questionId).lastIndexOf(problem.questionId);
    throw new AnswerRefused(problem, index < 0 ? undefined : index);
  }
  const saved = await saveAnswers(deps.db, deps.secret, { ...s, answers: merged }, deps.clock().toISOString());
  if (!saved) throw new ScreeningChangedConcurrently();
  // The row is what was just written (saveAnswers matched its revision): no read back.
  return view(c, { ...s, answers: merged, revision: s.revision + 1 });
}

/** `TC-` and 16 characters of Crockford base 32 (80 random bits): our reference for the screening. */
function newReferenceNumber(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = Buffer.from(randomToken(10), 'base64url');
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let text = '';
  for (let i = 0; i < 16; i++) text = `${alphabet.charAt(Number((bits >> BigInt(i * 5)) & 31n))}${text}`;
  return `TC-${text}`;
}

/** Assesses complete answers; completing a COMPLETED (not stale) screening again answers the same result. */
export async function completeScreening(
  deps: ScreeningDeps,
  actor: Actor,
  brandCode: BrandCode,
  quoteId: string,
  guid: string,
): Promise<ScreeningView> {
  const c = await contextOf(deps, actor, brandCode, quoteId, guid);
  const current = await findScreening(deps.db, deps.secret, quoteId, guid);
  if (current && view(c, current).status === 'COMPLETED') return view(c, current);
  const s = await inProgress(deps, c, guid, current);
  if (c.engine.checkAnswers(c.trip, s.answers).length > 0) throw new ScreeningIncomplete();
  if (c.engine.nextQuestions(c.trip, s.answers).length > 0) throw new ScreeningIncomplete();
  const now = deps.clock();
  const result: ScreeningResult = {
    referenceNumber: newReferenceNumber(),
    screeningDate: now.toISOString().slice(0, 10),
    assessment: c.engine.assess(c.trip, s.answers),
  };
  if (!(await saveResult(deps.db, deps.secret, s, result, now.toISOString()))) {
    const latest = await findScreening(deps.db, deps.secret, quoteId, guid);
    if (latest && view(c, latest).status === 'COMPLETED') return view(c, latest);
    throw new ScreeningChangedConcurrently();
  }
  return readOwn(deps, c, guid);
}
