import { newRecordId } from '../kernel/ids/ordered-ids.js';
import type { Actor } from '../auth/principal.js';
import type { BrandCode } from '../kernel/brands.js';
import type { ChangeDeps } from './deps.js';
import type { ChangeKind, NewPolicyChange } from './model.js';
import { paymentMethodOf, type ChangeStart } from './policy-facts.js';

/** What every preview records beside its pricing and planned transaction. */
export type PreviewHead = Omit<NewPolicyChange, 'pricing' | 'transaction'>;

/**
 * The head of a new preview of `kind`: who changes which policy, from which sequence number,
 * until when it may be confirmed (the preview TTL), and how its `amountMinor` moves.
 */
export function changeFor(
  { policy, now }: Pick<ChangeStart, 'policy' | 'now'>,
  { actor, brandCode }: { readonly actor: Actor; readonly brandCode: BrandCode },
  kind: ChangeKind,
  amountMinor: number,
  deps: Pick<ChangeDeps, 'previewTtlSeconds'>,
): PreviewHead {
  return {
    id: newRecordId(),
    kind,
    policyHeaderId: policy.id,
    policyNumber: policy.policyNumber,
    brandCode,
    partnerId: actor.partnerId,
    userId: actor.userId,
    baseSequenceNumber: policy.sequenceNumber,
    expiresAt: new Date(now.getTime() + deps.previewTtlSeconds * 1000).toISOString(),
    amountMinor,
    currency: policy.currency.code,
    paymentMethod: paymentMethodOf(policy),
    at: now.toISOString(),
  };
}
