import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { isRefusedValue } from '../db/refused-values.js';
import { paymentResultOf, type AuthorisationOutcome, type PaymentGateway } from '../payments/gateway.js';
import { InvalidPolicyIssue, PolicyAlreadyIssued } from '../policies/errors.js';
import { prepareIssue } from '../policies/service.js';
import type { QuoteBought } from '../quotes/repository-purchase.js';
import { endAttempt, issuePurchase, recordCapture, type IssueOutcome } from './commits.js';
import { gatewayKey, type Purchase, type PurchaseState } from './model.js';
import { findPurchase, moveState, type PurchasePatch } from './repository.js';

/**
 * The money steps of a purchase, shared by the request and by recovery. Every step is a compare
 * and set on the purchase's state, and every gateway call carries a key derived from the
 * purchase, so any number of retries (other processes, recovery after a crash) converge on one
 * authorisation, one policy and one capture.
 */
export interface FlowDeps {
  readonly db: Db;
  readonly gateway: PaymentGateway;
  readonly clock: Clock;
  readonly log?: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  /** Test hook (never in production): kill the process right after this step. */
  readonly crashAfter?: 'authorise' | 'issue';
}

/** Where a step left the purchase; `bought` when this very call issued the policy (how it marked the quote). */
export interface Settled {
  readonly purchase: Purchase;
  readonly bought?: QuoteBought & { readonly revision: number };
}

const settled = async (purchase: Purchase | Promise<Purchase>): Promise<Settled> => ({ purchase: await purchase });

const now = (deps: FlowDeps) => deps.clock().toISOString();

function crashPoint(deps: FlowDeps, step: 'authorise' | 'issue'): void {
  // SIGKILL: no cleanup, no flushing, exactly like a machine dying (test hook, see config).
  if (deps.crashAfter === step) process.kill(process.pid, 'SIGKILL');
}

async function current(deps: FlowDeps, id: string): Promise<Purchase> {
  const found = await findPurchase(deps.db, id);
  if (!found) throw new Error(`purchase ${id} vanished`);
  return found;
}

/** Records what the gateway answered to authorise or to a 3-D Secure continuation, and goes on. */
export async function applyAuthorisation(
  deps: FlowDeps,
  purchase: Purchase,
  outcome: AuthorisationOutcome,
): Promise<Settled> {
  const from: PurchaseState[] = ['STARTED', 'CHALLENGE_PENDING'];
  const at = now(deps);
  const paymentResult = paymentResultOf(outcome);
  switch (outcome.outcome) {
    case 'approved': {
      crashPoint(deps, 'authorise');
      // No external call comes between recording the approval and issuing: one commit does both.
      return finishApproved(deps, purchase, {
        from,
        patch: {
          paymentId: outcome.paymentId,
          paymentResult,
          threeDSStatus: outcome.threeDSStatus,
          challenge: null,
          declineReason: null,
        },
      });
    }
    case 'challenge_required': {
      const { challengeId: _id, expiresAt, ...challenge } = outcome.challenge;
      const moved = await moveState(
        deps.db,
        purchase,
        from,
        'CHALLENGE_PENDING',
        {
          paymentId: outcome.paymentId,
          paymentResult,
          threeDSStatus: 'CHALLENGE_REQUIRED',
          challenge,
          challengeExpiresAt: expiresAt,
        },
        at,
      );
      return settled(moved ?? current(deps, purchase.id));
    }
    case 'declined':
    case 'insufficient_funds': {
      const reason = outcome.outcome === 'declined' ? outcome.reason : 'INSUFFICIENT_FUNDS';
      return settled(
        endWithoutPolicy(deps, purchase, from, 'DECLINED', {
          paymentId: outcome.paymentId,
          paymentResult,
          declineReason: reason,
          threeDSStatus: outcome.threeDSStatus,
        }),
      );
    }
    case 'gateway_error':
      // A waiting challenge survives an outage: the partner may continue it again.
      if (purchase.state === 'CHALLENGE_PENDING') return { purchase };
      return settled(endWithoutPolicy(deps, purchase, from, 'FAILED', { paymentResult, declineReason: outcome.code }));
  }
}

export async function endWithoutPolicy(
  deps: FlowDeps,
  purchase: Purchase,
  from: PurchaseState[],
  to: 'DECLINED' | 'FAILED' | 'VOIDED',
  patch: PurchasePatch,
): Promise<Purchase> {
  return (await endAttempt(deps.db, purchase, { from, to, patch, at: now(deps) })) ?? current(deps, purchase.id);
}

/** An approval not recorded yet: the states it may be recorded from, and what the gateway answered. */
export interface Approval {
  readonly from: readonly PurchaseState[];
  readonly patch: PurchasePatch;
}

/**
 * AUTHORISED → ISSUED in one commit (the purchase's state, the policy and the quote: issue-repository.ts,
 * where racing processes queue on the purchase's row), then capture. With `approval` (the gateway has just
 * approved) the same transaction also records the authorisation, moving STARTED or
 * CHALLENGE_PENDING straight to ISSUED: one commit instead of two, and a crash before it leaves
 * the purchase STARTED, which recovery finishes by asking the gateway again with the same key
 * (it replays its approval). A policy that cannot be issued voids the hold.
 */
export async function finishApproved(deps: FlowDeps, purchase: Purchase, approval?: Approval): Promise<Settled> {
  const from = approval?.from ?? ['AUTHORISED'];
  const patch = approval?.patch ?? {};
  let outcome: IssueOutcome;
  try {
    const at = deps.clock();
    // The policy is issued from the issue request stored when the purchase started.
    const request = { ...purchase.issueRequest, paymentReference: patch.paymentId ?? purchase.paymentId };
    outcome = await issuePurchase(deps.db, {
      purchase,
      from,
      patch,
      request,
      issue: prepareIssue(request, at),
      at: at.toISOString(),
    });
    if (outcome.refused === 'quote-bought')
      throw new InvalidPolicyIssue('quote.id', 'the quote was bought by another purchase');
    if (outcome.refused === 'policy-exists') throw new PolicyAlreadyIssued(purchase.quoteId);
  } catch (error) {
    // A value the database refuses (e.g. PostgreSQL and a NUL in a name) can never be issued either.
    if (!(error instanceof InvalidPolicyIssue) && !isRefusedValue(error)) throw error;
    deps.log?.error(
      { err: error, purchaseId: purchase.id },
      'purchase: the policy could not be issued; voiding the authorisation',
    );
    // Nothing of the issue was written: record the approval on its own, then release the hold.
    const authorised = approval
      ? await moveState(deps.db, purchase, approval.from, 'AUTHORISED', approval.patch, now(deps))
      : purchase;
    if (!authorised) return advance(deps, await current(deps, purchase.id));
    return settled(voidAuthorisation(deps, authorised));
  }
  if (outcome.issued === undefined) return advance(deps, await current(deps, purchase.id));
  const { issued, quoteRevision } = outcome;
  crashPoint(deps, 'issue');
  const bought = {
    quoteId: issued.quoteId,
    policyNumber: issued.policyNumber ?? '',
    at: issued.updatedAt,
    revision: quoteRevision,
  };
  return { purchase: await capturePayment(deps, issued), bought };
}

/** ISSUED → CAPTURED. A failed capture leaves ISSUED for recovery to retry (the policy stands; nothing is charged twice). */
export async function capturePayment(deps: FlowDeps, purchase: Purchase): Promise<Purchase> {
  if (purchase.paymentId === undefined) return purchase;
  const outcome = await deps.gateway.capture({
    idempotencyKey: gatewayKey(purchase, 'capture'),
    paymentId: purchase.paymentId,
    amount: { amountMinor: purchase.amountMinor, currency: purchase.currency },
  });
  if (outcome.outcome === 'captured')
    return (await recordCapture(deps.db, purchase, now(deps))) ?? current(deps, purchase.id);
  deps.log?.error(
    { purchaseId: purchase.id, outcome: outcome.outcome, code: 'code' in outcome ? outcome.code : undefined },
    'purchase: capture did not succeed; recovery will retry',
  );
  return purchase;
}

/** AUTHORISED → VOIDED: the hold is released and the quote freed. A gateway outage leaves AUTHORISED for recovery. */
export async function voidAuthorisation(deps: FlowDeps, purchase: Purchase): Promise<Purchase> {
  if (purchase.paymentId !== undefined) {
    const outcome = await deps.gateway.void({
      idempotencyKey: gatewayKey(purchase, 'void'),
      paymentId: purchase.paymentId,
    });
    if (outcome.outcome === 'gateway_error') return purchase;
  }
  return endWithoutPolicy(deps, purchase, ['AUTHORISED', 'CHALLENGE_PENDING'], 'VOIDED', {});
}

/** Takes a purchase as far as it can go from its current state (used after losing a race, and by recovery). */
export async function advance(deps: FlowDeps, purchase: Purchase): Promise<Settled> {
  switch (purchase.state) {
    case 'STARTED': {
      // Same key, same call: the gateway replays the first answer (or answers now if it never got it).
      const outcome = await deps.gateway.authorise({
        idempotencyKey: gatewayKey(purchase, 'authorise'),
        amount: { amountMinor: purchase.amountMinor, currency: purchase.currency },
        cardToken: purchase.cardToken,
        reference: purchase.id,
      });
      return applyAuthorisation(deps, purchase, outcome);
    }
    case 'AUTHORISED':
      return finishApproved(deps, purchase);
    case 'ISSUED':
      return settled(capturePayment(deps, purchase));
    default:
      return { purchase };
  }
}
