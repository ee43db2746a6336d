import type { BackgroundLog } from '../../logging/background-log.js';
import type { Clock } from '../../context.js';
import type { Db, Executor } from '../../db/database.js';
import type { Notification } from '../../kernel/notifications/notification.js';
import { paymentResultOf, type AuthorisationOutcome, type PaymentGateway, type PaymentResult } from '../gateway.js';
import { continuationProblems } from '../three-ds.js';

/**
 * The one money flow of a purchase and of a policy change: authorise (3-D Secure: a challenge,
 * then its continuation), capture, void, refund line by line, the crash points and the reload of
 * the current state. An area hands it a `MoneyArea`: which of its states mean what, its commits
 * (compare and set on the record's state) and its answers. Every gateway call carries a key the
 * area derives from its record, so retries from any process (recovery after a crash) replay the
 * first answer and converge on one charge.
 */

/** The collaborators of a money flow; `crashAfter` names the area's test crash point. */
export interface MoneyDeps<Crash extends string = string> {
  readonly db: Db;
  readonly gateway: PaymentGateway;
  readonly clock: Clock;
  readonly log?: BackgroundLog;
  /** Test hook (never in production): kill the process right after this step. */
  readonly crashAfter?: Crash;
}

export type GatewayStep = 'authorise' | '3ds' | 'capture' | 'void';

/** A 3-D Secure challenge waiting for the cardholder, as a record keeps it. */
export interface ChallengeInfo {
  readonly threeDSStatus: string;
  readonly threeDSRequestPattern: string;
  readonly threeDSResponse: string;
}

/** A record whose money the flow moves: a purchase, a policy change. */
export interface Payable<S extends string> {
  readonly id: string;
  readonly state: S;
  readonly amountMinor: number;
  readonly currency: string;
  readonly cardToken?: string;
  readonly paymentId?: string;
  readonly challenge?: ChallengeInfo;
  readonly updatedAt: string;
}

/** What a gateway's answer records beside the state. */
export interface PaymentPatch {
  readonly paymentId?: string;
  readonly paymentResult?: PaymentResult;
  readonly declineReason?: string | null;
  readonly threeDSStatus?: string;
  readonly challenge?: ChallengeInfo | null;
  readonly challengeExpiresAt?: string;
}

/** An approval not recorded yet: the states it may be recorded from, and what the gateway answered. */
export interface Approval<S extends string> {
  readonly from: readonly S[];
  readonly patch: PaymentPatch & { readonly paymentId: string };
}

type Move<P, S> = (
  db: Executor,
  record: P,
  from: readonly S[],
  to: S,
  patch: PaymentPatch,
  at: string,
) => Promise<P | undefined>;

/**
 * What an area gives the flow: its states, its commits, its answers. `R` is what a step answers
 * (the record, or the record with what its commit wrote).
 */
export interface MoneyArea<S extends string, P extends Payable<S>, R> {
  /** The record's name in logs ('purchase', 'policy change') and in a continuation's problems ('purchase', 'change'). */
  readonly name: string;
  readonly challengeOf: string;
  readonly logKey: string;
  /** The gateway key of a step: derived from the record, so a retry replays. */
  readonly key: (record: P, step: GatewayStep) => string;
  readonly find: (db: Executor, id: string) => Promise<P | undefined>;
  /** The newest record started under an Idempotency-Key record. */
  readonly ofKey: (db: Executor, keyId: number) => Promise<P | undefined>;
  /** States a process works through without waiting for anyone (a held key waits for them). */
  readonly working: readonly S[];
  /** States an authorisation's answer is recorded from; the one of a waiting challenge. */
  readonly authorising: readonly S[];
  readonly challengePending: S;
  readonly move: Move<P, S>;
  /** The approval's commit and what follows it (issue or apply, then capture). */
  readonly approved: (deps: MoneyDeps, record: P, approval: Approval<S>) => Promise<R>;
  /** A refused card's, a failed gateway's commit. */
  readonly declined: (deps: MoneyDeps, record: P, from: readonly S[], patch: PaymentPatch) => Promise<P | undefined>;
  readonly failed: (deps: MoneyDeps, record: P, from: readonly S[], patch: PaymentPatch) => Promise<P | undefined>;
  readonly captured: (db: Db, record: P, at: string) => Promise<P | undefined>;
  /** The gateway refuses to capture (the hold is gone); without it the record stays for recovery. */
  readonly captureRejected?: (deps: MoneyDeps, record: P, code: string) => Promise<P | undefined>;
  readonly settled: (record: P) => R;
}

export const now = (deps: MoneyDeps) => deps.clock().toISOString();

export function crashPoint(deps: MoneyDeps, step: string): void {
  // SIGKILL: no cleanup, no flushing, exactly like a machine dying (test hook, see config).
  if (deps.crashAfter === step) process.kill(process.pid, 'SIGKILL');
}

/** The record as stored now (after losing a compare and set). */
export async function current<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  id: string,
): Promise<P> {
  const found = await area.find(deps.db, id);
  if (!found) throw new Error(`${area.name} ${id} vanished`);
  return found;
}

/** Asks the gateway for the charge (the same key replays its first answer), and goes on. */
export async function authorise<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  record: P,
): Promise<R> {
  const outcome = await deps.gateway.authorise({
    idempotencyKey: area.key(record, 'authorise'),
    amount: { amountMinor: record.amountMinor, currency: record.currency },
    cardToken: record.cardToken ?? '',
    reference: record.id,
  });
  return applyAuthorisation(area, deps, record, outcome);
}

/** A record whose challenge waits for the cardholder's answer. */
export type Waiting<P> = P & { readonly challenge: ChallengeInfo; readonly paymentId: string };

export const isWaiting = <S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  record: P | undefined,
): record is Waiting<P> =>
  record?.state === area.challengePending && record.challenge !== undefined && record.paymentId !== undefined;

/** The continuation's problems (nothing was asked of the gateway), or where the answer took the record. */
export type Continued<R> = { readonly refused: Notification[] } | { readonly moved: R };

/** The follow-up after a 3-D Secure challenge: only now is the card authorised (or declined). */
export async function continueChallenge<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  pending: Waiting<P>,
  info: { readonly threeDSStatus?: string; readonly threeDSRequest?: string },
): Promise<Continued<R>> {
  const refused = continuationProblems(pending.challenge.threeDSResponse, info, area.challengeOf);
  if (refused.length > 0) return { refused };
  const outcome = await deps.gateway.continueThreeDs({
    idempotencyKey: area.key(pending, '3ds'),
    paymentId: pending.paymentId,
    threeDSStatus: info.threeDSStatus ?? '',
    threeDSRequest: pending.challenge.threeDSResponse,
  });
  return { moved: await applyAuthorisation(area, deps, pending, outcome) };
}

/** Records what the gateway answered to authorise or to a 3-D Secure continuation, and goes on. */
export async function applyAuthorisation<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  record: P,
  outcome: AuthorisationOutcome,
): Promise<R> {
  const from = area.authorising;
  const paymentResult = paymentResultOf(outcome);
  const or = async (moved: P | undefined) => area.settled(moved ?? (await current(area, deps, record.id)));
  switch (outcome.outcome) {
    case 'approved': {
      crashPoint(deps, 'authorise');
      const { paymentId, threeDSStatus } = outcome;
      return area.approved(deps, record, { from, patch: { paymentId, paymentResult, threeDSStatus, challenge: null } });
    }
    case 'challenge_required': {
      const { challengeId: _id, expiresAt, ...challenge } = outcome.challenge;
      const patch = {
        paymentId: outcome.paymentId,
        paymentResult,
        threeDSStatus: 'CHALLENGE_REQUIRED',
        challenge,
        challengeExpiresAt: expiresAt,
      };
      return or(await area.move(deps.db, record, from, area.challengePending, patch, now(deps)));
    }
    case 'declined':
    case 'insufficient_funds':
      return or(
        await area.declined(deps, record, from, {
          paymentId: outcome.paymentId,
          paymentResult,
          declineReason: outcome.outcome === 'declined' ? outcome.reason : 'INSUFFICIENT_FUNDS',
          threeDSStatus: outcome.threeDSStatus,
        }),
      );
    case 'gateway_error':
      // A waiting challenge survives an outage: the partner may continue it again.
      if (record.state === area.challengePending) return area.settled(record);
      return or(await area.failed(deps, record, from, { paymentResult, declineReason: outcome.code }));
  }
}

/** Captures an approved hold and commits it. A failed capture leaves the record for recovery (nothing is charged twice). */
export async function capture<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  record: P,
): Promise<P> {
  if (record.paymentId === undefined) return record;
  const outcome = await deps.gateway.capture({
    idempotencyKey: area.key(record, 'capture'),
    paymentId: record.paymentId,
    amount: { amountMinor: record.amountMinor, currency: record.currency },
  });
  if (outcome.outcome === 'captured')
    return (await area.captured(deps.db, record, now(deps))) ?? current(area, deps, record.id);
  if (outcome.outcome === 'rejected' && area.captureRejected)
    return (await area.captureRejected(deps, record, outcome.code)) ?? current(area, deps, record.id);
  deps.log?.error(
    { [area.logKey]: record.id, outcome: outcome.outcome, code: 'code' in outcome ? outcome.code : undefined },
    `${area.name}: capture did not succeed; recovery will retry`,
  );
  return record;
}

/** Releases a hold (or abandons a challenge) at the gateway; false on an outage (recovery asks again). */
export async function releaseHold<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  record: P,
  paymentId: string,
): Promise<boolean> {
  const outcome = await deps.gateway.void({ idempotencyKey: area.key(record, 'void'), paymentId });
  return outcome.outcome !== 'gateway_error';
}

/** Where paying refund lines back stopped: all paid, an outage that may pass, or a final refusal after `paid`. */
export type Refunded<L> =
  | { readonly outcome: 'refunded' }
  | { readonly outcome: 'outage' }
  | { readonly outcome: 'refused'; readonly code: string; readonly paid: readonly L[] };

/** Each line back to its payment, in order, keyed per line (a retry replays the lines already paid). */
export async function refundLines<L extends { readonly paymentId: string; readonly amountMinor: number }>(
  deps: MoneyDeps,
  lines: readonly L[],
  currency: string,
  keyOf: (line: L) => string,
): Promise<Refunded<L>> {
  const paid: L[] = [];
  for (const line of lines) {
    const outcome = await deps.gateway.refund({
      idempotencyKey: keyOf(line),
      paymentId: line.paymentId,
      amount: { amountMinor: line.amountMinor, currency },
    });
    if (outcome.outcome === 'gateway_error' && outcome.retryable) return { outcome: 'outage' };
    if (outcome.outcome === 'gateway_error' || outcome.outcome === 'rejected')
      return { outcome: 'refused', code: outcome.code, paid };
    paid.push(line);
  }
  return { outcome: 'refunded' };
}
