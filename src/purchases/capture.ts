import type { Compilable } from 'kysely';
import type { Db } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { reusableQuery } from '../db/reusable-query.js';
import { purchaseCapturedEvent } from '../events/data.js';
import { recordEvent } from '../events/repository.js';
import { EVENT_NAMES, eventValues, withPolicyEventAfter, type EventValues } from '../events/statements.js';
import type { Purchase } from './model.js';
import { capturedStatement, issuedPurchase, moveState, type IssuedRow } from './repository.js';

/**
 * ISSUED → CAPTURED and its `payment.captured` event, one commit: the partner hears of every
 * capture, once. PostgreSQL: one statement of CTEs (the move, the policy's event sequence, the
 * event, its publishing message), no BEGIN/COMMIT round trips on the purchase's path; SQLite: one
 * transaction. Undefined when the purchase had moved on (another process captured it).
 */
export async function recordCapture(db: Db, purchase: Purchase, at: string): Promise<Purchase | undefined> {
  const { policyNumber } = purchase;
  // Issued before policy numbers were kept on purchases: nothing to report the capture under.
  if (policyNumber === undefined) return moveState(db, purchase, ['ISSUED'], 'CAPTURED', {}, at);
  const event = { ...purchaseCapturedEvent({ ...purchase, policyNumber }), at };
  if (dialectOf(db) === 'postgres') {
    const [row] = (await captureStatement(db, { id: purchase.id, at, ...eventValues(event) })).rows;
    return row ? issuedPurchase(row, purchase) : undefined;
  }
  return db.transaction().execute(async (tx) => {
    const moved = await moveState(tx, purchase, ['ISSUED'], 'CAPTURED', {}, at);
    if (moved) await recordEvent(tx, event);
    return moved;
  });
}

const captureStatement = reusableQuery(
  ['id', 'at', ...EVENT_NAMES],
  (db, v: EventValues & { id: string; at: string }) =>
    withPolicyEventAfter(
      db.with('moved', (qc) => capturedStatement(qc, v)),
      'moved',
      v,
    )
      .selectFrom('moved' as never)
      .selectAll() as unknown as Compilable<IssuedRow>,
);
