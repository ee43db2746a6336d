import { Conflict, NotFound, type DomainError } from '../kernel/errors.js';
import { PolicyNotFound } from '../policies/errors.js';
import type { ChangeKind, PolicyChange } from './model.js';

const noun = (kind: ChangeKind) => (kind === 'AMENDMENT' ? 'amendment' : 'cancellation');

/** Unknown id, or a change of another policy, partner or brand: the caller cannot tell which. */
export class PolicyChangeNotFound extends NotFound {
  constructor(kind: ChangeKind, id: string) {
    super(`${kind}_NOT_FOUND`, `No ${noun(kind)} with this id exists for this policy.`, {
      property: kind === 'AMENDMENT' ? 'amendmentId' : 'cancellationId',
      value: id,
    });
  }
}

/** A cancelled policy can be read, never changed again. */
export class PolicyCancelled extends Conflict {
  constructor(policyNumber: string) {
    super('POLICY_CANCELLED', `Policy '${policyNumber}' is cancelled; it cannot be amended or cancelled again.`, {
      property: 'policyNumber',
      value: policyNumber,
    });
  }
}

/** Another amendment or cancellation of the policy is being confirmed (or awaits its 3-D Secure answer). */
export class PolicyChangeInProgress extends Conflict {
  constructor(policyNumber: string) {
    super(
      'POLICY_CHANGE_IN_PROGRESS',
      'Another amendment or cancellation of this policy is being confirmed; wait for its answer.',
      { property: 'policyNumber', value: policyNumber, retryAfterSeconds: 1 },
    );
  }
}

/** The preview's time to confirm has passed: ask for a new one (prices may have changed). */
export class ChangePreviewExpired extends Conflict {
  constructor(kind: ChangeKind, expiresAt: string) {
    super(`${kind}_EXPIRED`, `The ${noun(kind)} preview expired at ${expiresAt}; ask for a new preview.`, {
      property: kind === 'AMENDMENT' ? 'amendmentId' : 'cancellationId',
      tokens: { expiresAt },
    });
  }
}

/** Another transaction happened since the preview: it no longer describes the policy. */
export class ChangePreviewStale extends Conflict {
  constructor(kind: ChangeKind, sequenceNumber: number) {
    super(
      `${kind}_STALE`,
      `The policy changed since this ${noun(kind)} was previewed (now at transaction ${sequenceNumber}); ask for a new preview.`,
      {
        property: kind === 'AMENDMENT' ? 'amendmentId' : 'cancellationId',
        tokens: { sequenceNumber: String(sequenceNumber) },
      },
    );
  }
}

/** The change was already confirmed (or ended); only its own Idempotency-Key replays its answer. */
export class ChangeAlreadyConfirmed extends Conflict {
  constructor(kind: ChangeKind, state: string) {
    super(`${kind}_ALREADY_CONFIRMED`, `This ${noun(kind)} was already confirmed (${state}).`, {
      property: kind === 'AMENDMENT' ? 'amendmentId' : 'cancellationId',
      tokens: { state },
    });
  }
}

/** The amendment is referred to an underwriter (policy-changes/referrals.ts): confirm it once approved. */
export class AmendmentReferred extends Conflict {
  constructor(referralStatus: string) {
    super(
      'AMENDMENT_REFERRED',
      referralStatus === 'INFORMATION_REQUESTED'
        ? 'The amendment is referred to an underwriter who asks for information; it cannot be confirmed until approved.'
        : 'The amendment is referred to an underwriter; it cannot be confirmed until the referral is approved.',
      { property: 'amendmentId', tokens: { referralStatus } },
    );
  }
}

/** An underwriter declined the amendment: it is never confirmed (another preview is judged afresh). */
export class AmendmentReferralDeclined extends Conflict {
  constructor(referralStatus: string) {
    super('AMENDMENT_REFERRAL_DECLINED', 'An underwriter declined this amendment; it cannot be confirmed.', {
      property: 'amendmentId',
      tokens: { referralStatus },
    });
  }
}

/**
 * Why a preview cannot be confirmed now, as the checks and the policy's hold answer it
 * (confirmations.ts turns it into its error, after marking a stale preview STALE).
 */
export type Refusal =
  | { readonly refused: 'stale'; readonly sequenceNumber: number }
  | { readonly refused: 'referred'; readonly referralStatus: string }
  | { readonly refused: 'referral-declined'; readonly referralStatus: string }
  | { readonly refused: 'in-progress' | 'confirmed' | 'expired' | 'cancelled' | 'policy-gone' };

export const isRefusal = (outcome: object): outcome is Refusal => 'refused' in outcome;

/** The error a refusal answers the partner with. */
export function refusalError(
  change: Pick<PolicyChange, 'kind' | 'policyNumber' | 'state' | 'expiresAt'>,
  refusal: Refusal,
): DomainError {
  switch (refusal.refused) {
    case 'stale':
      return new ChangePreviewStale(change.kind, refusal.sequenceNumber);
    case 'in-progress':
      return new PolicyChangeInProgress(change.policyNumber);
    case 'confirmed':
      return new ChangeAlreadyConfirmed(change.kind, change.state);
    case 'expired':
      return new ChangePreviewExpired(change.kind, change.expiresAt);
    case 'cancelled':
      return new PolicyCancelled(change.policyNumber);
    case 'policy-gone':
      return new PolicyNotFound(change.policyNumber);
    case 'referred':
      return new AmendmentReferred(refusal.referralStatus);
    case 'referral-declined':
      return new AmendmentReferralDeclined(refusal.referralStatus);
  }
}
