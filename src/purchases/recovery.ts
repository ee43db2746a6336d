import { failureName } from '../db/refused-values.js';
import { listHeldClaims, releaseHeldClaim } from '../quotes/repository-purchase.js';
import { current, releaseHold } from '../payments/flow/flow.js';
import { emptyTally, settleLeased } from '../payments/flow/recovery.js';
import { advance, endWithoutPolicy, purchaseMoney, type FlowDeps } from './flow.js';
import { OPEN_STATES, type Purchase, type PurchaseState } from './model.js';
import { hasPurchaseOfQuote } from './repository.js';
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

export async function recoverPurchases(deps: FlowDeps, options: { graceSeconds: number }): Promise<RecoveryReport> {
  const now = deps.clock();
  const before = new Date(now.getTime() - options.graceSeconds * 1000).toISOString();
  const tally = emptyTally<PurchaseState>();
  const problems: RecoveryProblem[] = [];
  const failed = (problem: RecoveryProblem, error: unknown) => {
    problems.push(problem);
    deps.log?.error({ err: error, ...problem }, 'purchase recovery: could not settle a record; going on');
  };
  const settle = (listed: readonly PurchaseLease[], step: (p: Purchase) => Promise<Purchase>) =>
    settleLeased(deps, tally, listed, {
      lease: async (lease, at) => ((await leasePurchase(deps.db, lease, at)) ? lease : undefined),
      finish: async (lease) => step(await current(purchaseMoney, deps.db, lease.id)),
      failed: (lease, error) => failed({ purchaseId: lease.id, state: lease.state, reason: failureName(error) }, error),
    });

  await settle(
    await listLeases(deps.db, ['AUTHORISED', 'ISSUED', 'STARTED'], before),
    async (p) => (await advance(deps, p)).purchase,
  );
  const pending = await listLeases(deps.db, ['CHALLENGE_PENDING'], now.toISOString());
  await settle(
    pending.filter((p) => (p.challengeExpiresAt ?? '') <= now.toISOString()),
    (p) => expireChallenge(deps, p),
  );
  const repairedClaims = await repairClaims(deps, before, failed);

  const { examined, outcomes } = tally;
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
  if (purchase.paymentId !== undefined && !(await releaseHold(purchaseMoney, deps, purchase, purchase.paymentId)))
    return purchase;
  return endWithoutPolicy(deps, purchase, ['CHALLENGE_PENDING'], 'FAILED', {
    paymentResult: 'DECLINED',
    declineReason: 'THREEDS_CHALLENGE_EXPIRED',
  });
}
