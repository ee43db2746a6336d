import type { Executor } from '../../db/database.js';
import { bindKey } from '../../http/idempotency/repository.js';
import type { HeldKey } from '../../http/idempotency/service.js';
import type { Notification } from '../../kernel/notifications/notification.js';
import type { AuthorisationOutcome, Checkout, PaymentGateway, PaymentResult, PaymentRoute } from '../gateway.js';
import { continuationProblems } from '../three-ds.js';
import type { Approval, ChallengeInfo, MoneyArea, MoneyDeps, Payable } from './area.js';

/**
 * The one money flow of a purchase and of a policy change: authorise (3-D Secure: a challenge,
 * then its continuation), capture, void, refund line by line, the crash points and the reload of
 * the current state. An area hands it a `MoneyArea`: which of its states mean what, its commits
 * (compare and set on the record's state) and its answers. Every gateway call carries a key the
 * area derives from its record, so retries from any process (recovery after a crash) replay the
 * first answer and converge on one charge.
 */

export const now = (deps: MoneyDeps) => deps.clock().toISOString();

/** The gateway that moves a record's money: its brand's card gateway, or the partner's account. */
const gatewayOf = (deps: MoneyDeps, route: PaymentRoute): PaymentGateway => deps.gateways.gatewayFor(route);

/**
 * A step's end, where a test may fail the request (`crashHook`: e.g. as a lost database connection
 * would, right after the step's commit or gateway call) or kill the process (`crashAfter`).
 */
export function crashPoint(deps: MoneyDeps, step: string): void {
  deps.crashHook?.(step);
  // SIGKILL: no cleanup, no flushing, exactly like a machine dying (test hook, see config).
  if (deps.crashAfter === step) process.kill(process.pid, 'SIGKILL');
}

/** The record as stored now (after losing a compare and set). */
export async function current<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  db: Executor,
  id: string,
): Promise<P> {
  const found = await area.find(db, id);
  if (!found) throw new Error(`${area.name} ${id} vanished`);
  return found;
}

/**
 * Asks the gateway for the charge (the same key replays its first answer), and goes on. The
 * request's `checkout` is what a challenge page shows; recovery, with no request, has none.
 */
export async function authorise<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  record: P,
  checkout?: Checkout,
): Promise<R> {
  const outcome = await gatewayOf(deps, record).authorise({
    idempotencyKey: area.key(record, 'authorise'),
    amount: { amountMinor: record.amountMinor, currency: record.currency },
    cardToken: record.cardToken ?? '',
    reference: record.id,
    ...(checkout ? { checkout } : {}),
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

/**
 * The follow-up after a 3-D Secure challenge: only now is the card authorised (or declined). The
 * request's Idempotency-Key names the record before the gateway is asked, so a retry with it after
 * any failure answers from the record (or continues it again: the gateway replays).
 */
export async function continueChallenge<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  pending: Waiting<P>,
  info: { readonly threeDSStatus?: string; readonly threeDSRequest?: string },
  key?: HeldKey,
): Promise<Continued<R>> {
  const refused = continuationProblems(pending.challenge.threeDSResponse, info, area.challengeOf);
  if (refused.length > 0) return { refused };
  if (key) await bindKey(deps.db, { keyId: key.id, subject: area.subjectOf(pending) });
  crashPoint(deps, 'continue');
  const outcome = await gatewayOf(deps, pending).continueThreeDs({
    idempotencyKey: area.key(pending, '3ds'),
    paymentId: pending.paymentId,
    threeDSStatus: info.threeDSStatus ?? '',
    threeDSRequest: pending.challenge.threeDSResponse,
  });
  return { moved: await applyAuthorisation(area, deps, pending, outcome) };
}

/** Maps an authorisation outcome to the contract's `paymentResult`. */
export function paymentResultOf(outcome: AuthorisationOutcome): PaymentResult {
  switch (outcome.outcome) {
    case 'approved':
      return 'APPROVED';
    case 'declined':
      return 'DECLINED';
    case 'insufficient_funds':
      return 'INSUFFICIENT_FUNDS';
    case 'challenge_required':
      return 'THREEDS_CHALLENGE_REQUIRED';
    case 'gateway_error':
      return 'GATEWAY_ERROR';
  }
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
  const at = now(deps);
  const or = async (moved: P | undefined) => area.settled(moved ?? (await current(area, deps.db, record.id)));
  switch (outcome.outcome) {
    case 'approved': {
      crashPoint(deps, 'authorise');
      const { paymentId, threeDSStatus } = outcome;
      return approve(area, deps, record, { from, patch: { paymentId, paymentResult, threeDSStatus, challenge: null } });
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
      return or(await area.move(deps.db, record, from, area.challengePending, patch, at));
    }
    case 'declined':
    case 'insufficient_funds':
      return or(
        await area.declined(
          deps.db,
          record,
          from,
          {
            paymentId: outcome.paymentId,
            paymentResult,
            declineReason: outcome.outcome === 'declined' ? outcome.reason : 'INSUFFICIENT_FUNDS',
            threeDSStatus: outcome.threeDSStatus,
          },
          at,
        ),
      );
    case 'gateway_error':
      // A waiting challenge survives an outage: the partner may continue it again.
      if (record.state === area.challengePending) return area.settled(record);
      return or(await area.failed(deps.db, record, from, { paymentResult, declineReason: outcome.code }, at));
  }
}

/**
 * An approval (just answered, or recorded before: `approval` undefined) committed with what it
 * brings, then captured; one that cannot stand has its hold released and its record ended.
 */
export async function approve<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  record: P,
  approval?: Approval<S>,
): Promise<R> {
  const at = now(deps);
  const committed = await area.approved(deps.db, record, approval, at);
  if ('applied' in committed) {
    crashPoint(deps, area.appliedCrashPoint);
    return committed.answer(await capture(area, deps, committed.applied));
  }
  if ('overtaken' in committed) {
    // Another step took the record elsewhere (e.g. recovery released an expired challenge): this hold is not ours to keep.
    if (committed.releaseOurs && approval) await releaseHold(area, deps, record, approval.patch.paymentId);
    return area.advance(deps, committed.overtaken);
  }
  const { unusable, paymentId, why, error } = committed;
  deps.log?.error({ err: error, [area.logKey]: record.id }, `${area.name}: ${why}; voiding the authorisation`);
  // A gateway outage leaves the hold for recovery, which asks again.
  if (paymentId !== undefined && !(await releaseHold(area, deps, unusable, paymentId))) return area.settled(unusable);
  return area.settled(
    (await area.voided(deps.db, unusable, paymentId, now(deps))) ?? (await current(area, deps.db, record.id)),
  );
}

/** Captures an approved hold and commits it. A failed capture leaves the record for recovery (nothing is charged twice). */
export async function capture<S extends string, P extends Payable<S>, R>(
  area: MoneyArea<S, P, R>,
  deps: MoneyDeps,
  record: P,
): Promise<P> {
  if (record.paymentId === undefined) return record;
  const outcome = await gatewayOf(deps, record).capture({
    idempotencyKey: area.key(record, 'capture'),
    paymentId: record.paymentId,
    amount: { amountMinor: record.amountMinor, currency: record.currency },
  });
  if (outcome.outcome === 'captured') {
    crashPoint(deps, 'capture');
    const captured = (await area.captured(deps.db, record, now(deps))) ?? (await current(area, deps.db, record.id));
    crashPoint(deps, 'captured');
    return captured;
  }
  if (outcome.outcome === 'rejected' && area.captureRejected)
    return (await area.captureRejected(deps.db, record, outcome.code, now(deps))) ?? current(area, deps.db, record.id);
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
  const outcome = await gatewayOf(deps, record).void({ idempotencyKey: area.key(record, 'void'), paymentId });
  return outcome.outcome !== 'gateway_error';
}

/**
 * Where paying refund lines back stopped: all paid; an outage that may pass or a final refusal
 * (its gateway code); or the record was taken elsewhere meanwhile (its recording lost).
 */
export type Refunded =
  | { readonly outcome: 'refunded' }
  | { readonly outcome: 'outage'; readonly code: string }
  | { readonly outcome: 'refused'; readonly code: string }
  | { readonly outcome: 'overtaken' };

/**
 * Each line back to its payment, in order, keyed per line (a retry replays a line already paid).
 * A line recorded as paid (`isPaid`) is not asked again; each line the gateway pays is recorded
 * (`record`, false when the record moved on: the flow stops) before the next line is asked, so an
 * outage or a refusal leaves what went through on the record.
 */
export async function refundLines<L extends { readonly paymentId: string; readonly amountMinor: number }>(
  deps: MoneyDeps,
  route: PaymentRoute,
  lines: readonly L[],
  currency: string,
  steps: {
    readonly keyOf: (line: L) => string;
    readonly isPaid: (line: L) => boolean;
    readonly record: (line: L) => Promise<boolean>;
  },
): Promise<Refunded> {
  for (const line of lines) {
    if (steps.isPaid(line)) continue;
    const outcome = await gatewayOf(deps, route).refund({
      idempotencyKey: steps.keyOf(line),
      paymentId: line.paymentId,
      amount: { amountMinor: line.amountMinor, currency },
    });
    if (outcome.outcome === 'gateway_error' && outcome.retryable) return { outcome: 'outage', code: outcome.code };
    if (outcome.outcome === 'gateway_error' || outcome.outcome === 'rejected')
      return { outcome: 'refused', code: outcome.code };
    // Paid, not recorded yet: a retry asks again with the same key and the gateway replays it.
    crashPoint(deps, 'refund-line');
    if (!(await steps.record(line))) return { outcome: 'overtaken' };
  }
  return { outcome: 'refunded' };
}
