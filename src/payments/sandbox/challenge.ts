import type { Db } from '../../db/database.js';
import { ChallengeNotFound } from '../errors.js';
import type { Money } from '../gateway.js';
import { answerChallenge as recordAnswer, findPaymentByChallenge } from './repository.js';

/** Where a challenge stands, as the cardholder's page shows it. */
export type ChallengeState = 'pending' | 'approved' | 'declined' | 'expired';

export interface ChallengeView {
  readonly challengeId: string;
  readonly amount: Money;
  readonly state: ChallengeState;
  /** Whom the cardholder pays (AuthoriseRequest `checkout`); absent for a payment made without one. */
  readonly merchantName?: string;
  /** The partner's page the cardholder returns to after answering. */
  readonly returnUrl?: string;
}

export const CHALLENGE_DECISIONS = ['approve', 'decline'] as const;
export type ChallengeDecision = (typeof CHALLENGE_DECISIONS)[number];

/** The sandbox issuer's view of a challenge (the page the cardholder's browser opens). */
export async function describeChallenge(db: Db, challengeId: string, now: Date): Promise<ChallengeView> {
  const row = await findPaymentByChallenge(db, challengeId);
  if (!row) throw new ChallengeNotFound(challengeId);
  let state: ChallengeState;
  if (row.challenge_answer === 'approved') state = 'approved';
  else if (row.challenge_answer === 'declined') state = 'declined';
  else if (row.status !== 'challenge' || (row.challenge_expires_at ?? '') <= now.toISOString()) state = 'expired';
  else state = 'pending';
  return {
    challengeId,
    amount: { amountMinor: row.amount_minor, currency: row.currency },
    state,
    ...(row.merchant_name ? { merchantName: row.merchant_name } : {}),
    ...(row.return_url ? { returnUrl: row.return_url } : {}),
  };
}

/**
 * Records the cardholder's answer. Only the first answer counts (`recorded: false` and the view of
 * the first, or of the expired challenge); nothing is charged here: the merchant's continuation
 * call authorises afterwards.
 */
export async function answerChallenge(
  db: Db,
  challengeId: string,
  decision: ChallengeDecision,
  now: Date,
): Promise<{ readonly view: ChallengeView; readonly recorded: boolean }> {
  const recorded = await recordAnswer(
    db,
    challengeId,
    decision === 'approve' ? 'approved' : 'declined',
    now.toISOString(),
  );
  return { view: await describeChallenge(db, challengeId, now), recorded };
}
