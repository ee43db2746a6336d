import { advance, type FlowDeps } from './flow.js';
import { gatewayKey, type Purchase, type PurchaseState } from './model.js';
import { releaseQuote } from '../quotes/repository-purchase.js';
import { listPurchases, moveState } from './repository.js';

/**
 * Finishes or undoes purchases a process left in flight (it crashed, or lost its connection):
 * AUTHORISED → issue then capture (or void if the policy cannot be issued); ISSUED → capture;
 * STARTED → ask the gateway again with the same authorise key (a replay returns the first
 * answer) and go on; CHALLENGE_PENDING past its expiry → abandoned, quote released. Purchases
 * changed within the grace period are left alone: another process may be working on them.
 * Run at start and by `purchases recover`. Invariant: no capture without a policy, no policy
 * without a purchase record.
 */
export interface RecoveryReport {
  /** Purchases looked at, by their state before recovery. */
  readonly examined: Partial<Record<PurchaseState, number>>;
  /** Purchases by their state after recovery. */
  readonly outcomes: Partial<Record<PurchaseState, number>>;
  readonly failures: number;
}

export async function recoverPurchases(deps: FlowDeps, options: { graceSeconds: number }): Promise<RecoveryReport> {
  const now = deps.clock();
  const before = new Date(now.getTime() - options.graceSeconds * 1000).toISOString();
  const examined: Partial<Record<PurchaseState, number>> = {};
  const outcomes: Partial<Record<PurchaseState, number>> = {};
  let failures = 0;
  const count = (map: Partial<Record<PurchaseState, number>>, state: PurchaseState) =>
    (map[state] = (map[state] ?? 0) + 1);

  const settle = async (purchase: Purchase, step: (p: Purchase) => Promise<Purchase>) => {
    count(examined, purchase.state);
    try {
      count(outcomes, (await step(purchase)).state);
    } catch (error) {
      failures += 1;
      deps.log?.error({ err: error, purchaseId: purchase.id }, 'purchase recovery: could not settle a purchase');
    }
  };

  for (const purchase of await listPurchases(deps.db, ['AUTHORISED', 'ISSUED', 'STARTED'], before))
    await settle(purchase, async (p) => (await advance(deps, p)).purchase);
  const pending = await listPurchases(deps.db, ['CHALLENGE_PENDING'], now.toISOString());
  for (const purchase of pending.filter((p) => (p.challengeExpiresAt ?? '') <= now.toISOString())) {
    await settle(purchase, (p) => expireChallenge(deps, p));
  }
  if (failures > 0 || Object.keys(examined).length > 0)
    deps.log?.info({ examined, outcomes, failures }, 'purchase recovery finished');
  return { examined, outcomes, failures };
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
  const at = deps.clock().toISOString();
  const moved = await moveState(
    deps.db,
    purchase,
    ['CHALLENGE_PENDING'],
    'FAILED',
    { paymentResult: 'DECLINED', declineReason: 'THREEDS_CHALLENGE_EXPIRED' },
    at,
  );
  if (!moved) return purchase;
  await releaseQuote(deps.db, purchase.quoteId, at);
  return moved;
}
