import type { PolicyChange, RefundLine } from './model.js';

/**
 * The payments of a policy and what is left of each to refund (pure). Captured: the purchase
 * (once CAPTURED) and every settled amendment charge; refunded: every refund line of the policy's
 * changes that went through. A refund is allocated to the newest payment that can take it whole
 * (one gateway call, to the card used last); else spread newest first. Never more than captured.
 */
export interface PolicyPayment {
  readonly paymentId: string;
  readonly capturedMinor: number;
  readonly refundedMinor: number;
}

/** The purchase's payment, as the purchases area reports it. */
export interface PurchasePayment {
  readonly paymentId: string;
  readonly amountMinor: number;
  readonly captured: boolean;
}

/** A refund line counts once it went through: the whole allocation of a SETTLED change, the marked lines of one refunding or ended part-way. */
function refundedLines(change: PolicyChange): readonly RefundLine[] {
  const lines = change.refunds ?? [];
  return change.state === 'SETTLED' ? lines : lines.filter((line) => line.refunded === true);
}

export function paymentsOf(purchase: PurchasePayment | undefined, changes: readonly PolicyChange[]): PolicyPayment[] {
  const captured: { paymentId: string; amountMinor: number }[] = [];
  if (purchase?.captured) captured.push({ paymentId: purchase.paymentId, amountMinor: purchase.amountMinor });
  for (const change of changes)
    if (change.state === 'SETTLED' && change.amountMinor > 0 && change.paymentId !== undefined)
      captured.push({ paymentId: change.paymentId, amountMinor: change.amountMinor });
  const refunded = new Map<string, number>();
  for (const change of changes)
    for (const line of refundedLines(change))
      refunded.set(line.paymentId, (refunded.get(line.paymentId) ?? 0) + line.amountMinor);
  return captured.map((p) => ({
    paymentId: p.paymentId,
    capturedMinor: p.amountMinor,
    refundedMinor: refunded.get(p.paymentId) ?? 0,
  }));
}

/** The refund of `amountMinor` (> 0) over `payments` (oldest first); undefined when they cannot take it all. */
export function allocateRefund(payments: readonly PolicyPayment[], amountMinor: number): RefundLine[] | undefined {
  const newestFirst = [...payments].reverse().map((p) => ({ ...p, left: p.capturedMinor - p.refundedMinor }));
  const whole = newestFirst.find((p) => p.left >= amountMinor);
  if (whole) return [{ paymentId: whole.paymentId, amountMinor }];
  const lines: RefundLine[] = [];
  let due = amountMinor;
  for (const payment of newestFirst) {
    if (due === 0) break;
    const take = Math.min(payment.left, due);
    if (take > 0) lines.push({ paymentId: payment.paymentId, amountMinor: take });
    due -= take;
  }
  return due === 0 ? lines : undefined;
}

/** How far a change's refund went: the lines paid back, what they came to and what is still owed (minor units, ≥ 0). */
export interface RefundProgress {
  readonly paid: readonly RefundLine[];
  readonly refundedMinor: number;
  readonly outstandingMinor: number;
}

export function refundProgress(change: PolicyChange): RefundProgress {
  const lines = change.refunds ?? [];
  const paid = refundedLines(change);
  const refundedMinor = paid.reduce((sum, line) => sum + line.amountMinor, 0);
  const dueMinor = lines.reduce((sum, line) => sum + line.amountMinor, 0);
  return { paid, refundedMinor, outstandingMinor: dueMinor - refundedMinor };
}
