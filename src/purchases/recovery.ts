import { failureName } from '../db/refused-values.js';
import { listHeldClaims, releaseHeldClaim } from '../quotes/repository-purchase.js';
import { advance, endWithoutPolicy, type FlowDeps } from './flow.js';
import { gatewayKey, OPEN_STATES, type Purchase, type PurchaseState } from './model.js';
import { findPurchase, hasPurchaseOfQuote } from './repository.js';
import { leasePurchase, listLeases, type PurchaseLease } from './repository-leases.js';

/**
 * Finishes or undoes purchases a process left in flight (it crashed, or lost its connection):
 * AUTHORISED → issue then capture (or void if the policy cannot be issued); ISSUED → capture;
 * STARTED → ask the gateway again with the same authorise key (a replay returns the first
 * answer) and go on; CHALLENGE_PENDING past its expiry → abandoned, quote released. Purchases
 * changed within the grace period are left alone: another process may be working on them; of
 * several recovering processes one leases each purchase (leasePurchase) and the others skip it.
 * Then frees quotes claimed with no attempt in flight (a crash of an older version between an
 * attempt's end and the release). One bad record never stops the run: it is reported and the
 * run goes on. Run at start, by the periodic sweep (sweeper.ts) and by `purchases recover`.
 * Invariant: no capture without a policy, no policy without a purchase record.
 */
export interface RecoveryReport {
  /** Purchases looked at, by their state before recovery. */
  readonly examined: Partial<Record<PurchaseState, number>>;
  /** Purchases by their state after recovery. */
  readonly outcomes: Partial<Record<PurchaseState, number>>;
  /** Quotes freed because their claim had no attempt in flight. */
  readonly repairedClaims: number;
  readonly failures: number;
  /** The records that failed, each named, with a value-free reason (the log has the details). */
  readonly problems: readonly RecoveryProblem[];
}

export interface RecoveryProblem {
  readonly purchaseId?: string;
  readonly quoteId?: string;
  readonly state?: PurchaseState;
  readonly reason: string;
}

type Counts = Partial<Record<PurchaseState, number>>;
const count = (map: Counts, state: PurchaseState) => (map[state] = (map[state] ?? 0) + 1);

export async function recoverPurchases(deps: FlowDeps, options: { graceSeconds: number }): Promise<RecoveryReport> {
  const now = deps.clock();
  const before = new Date(now.getTime() - options.graceSeconds * 1000).toISOString();
  const examined: Counts = {};
  const outcomes: Counts = {};
  const problems: RecoveryProblem[] = [];
  const failed = (problem: RecoveryProblem, error: unknown) => {
    problems.push(problem);
    deps.log?.error({ err: error, ...problem }, 'purchase recovery: could not settle a record; going on');
  };

  const settle = async (lease: PurchaseLease, step: (p: Purchase) => Promise<Purchase>) => {
    try {
      // Another process took it (or it moved on) since the listing: not ours to touch.
      if (!(await leasePurchase(deps.db, lease, deps.clock().toISOString()))) return;
      count(examined, lease.state);
      const purchase = await findPurchase(deps.db, lease.id);
      if (!purchase) throw new Error('purchase vanished');
      count(outcomes, (await step(purchase)).state);
    } catch (error) {
      failed({ purchaseId: lease.id, state: lease.state, reason: failureName(error) }, error);
    }
  };

  for (const lease of await listLeases(deps.db, ['AUTHORISED', 'ISSUED', 'STARTED'], before))
    await settle(lease, async (p) => (await advance(deps, p)).purchase);
  const pending = await listLeases(deps.db, ['CHALLENGE_PENDING'], now.toISOString());
  for (const lease of pending.filter((p) => (p.challengeExpiresAt ?? '') <= now.toISOString()))
    await settle(lease, (p) => expireChallenge(deps, p));
  const repairedClaims = await repairClaims(deps, before, failed);

  const report = { examined, outcomes, repairedClaims, failures: problems.length, problems };
  if (problems.length > 0 || repairedClaims > 0 || Object.keys(examined).length > 0)
    deps.log?.info(report, 'purchase recovery finished');
  return report;
}

/**
 * Frees quotes claimed (and untouched since `before`) with no attempt in flight: a claim and its
 * attempt are written together and an attempt's end releases the claim in the same commit, so
 * such a claim is a leftover nothing else would ever free.
 */
async function repairClaims(
  deps: FlowDeps,
  before: string,
  failed: (problem: RecoveryProblem, error: unknown) => void,
): Promise<number> {
  let repaired = 0;
  for (const claim of await listHeldClaims(deps.db, before)) {
    try {
      if (await hasPurchaseOfQuote(deps.db, claim.quoteId, OPEN_STATES)) continue;
      if (await releaseHeldClaim(deps.db, claim, deps.clock().toISOString())) repaired += 1;
    } catch (error) {
      failed({ quoteId: claim.quoteId, reason: failureName(error) }, error);
    }
  }
  return repaired;
}

/** A challenge nobody completed in time: the attempt fails and the quote is free again. */
async function expireChallenge(deps: FlowDeps, purchase: Purchase): Promise<Purchase> {
  if (purchase.paymentId !== undefined) {
    const outcome = await deps.gateway.void({
      idempotencyKey: gatewayKey(purchase, 'void'),
      paymentId: purchase.paymentId,
    });
    if (outcome.outcome === 'gateway_error') return purchase;
  }
  return endWithoutPolicy(deps, purchase, ['CHALLENGE_PENDING'], 'FAILED', {
    paymentResult: 'DECLINED',
    declineReason: 'THREEDS_CHALLENGE_EXPIRED',
  });
}
