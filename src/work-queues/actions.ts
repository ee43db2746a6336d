import { disableUser, enableUser, type StandingChange } from '../auth/user-standing.js';
import type { Clock } from '../context.js';
import type { Db, Executor } from '../db/database.js';
import { findMessage, retryMessage } from '../db/outbox/repository.js';
import { reenableEndpoint, type EndpointReenabled } from '../events/webhooks/reenable.js';
import { recordOperatorAction } from '../operators/audit-repository.js';
import { NO_OPERATOR } from '../operators/audit.js';
import { may, type Operator, type OperatorAction } from '../operators/model.js';
import { resolveAttention, type ResolvedChange } from '../policy-changes/attention.js';
import type { NoteReason } from '../policy-notes/model.js';
import { findReasonByText, listReasons } from '../policy-notes/repository.js';
import { addPolicyNote } from '../policy-notes/service.js';
import { ChangeNotInAttention, DeliveryNotFailed, OperatorNotAllowed } from './errors.js';
import { checkedReason } from './reasons.js';

/**
 * The work queues' actions (issue 31): each one the same area function the CLI calls, run in one
 * transaction with its entry in the operators' audit trail (who, when, what, before/after, why),
 * so the change and its record commit together or not at all. Each is a compare and set: a second
 * operator acting on the same item is refused (a Conflict), nothing done twice.
 */
export interface WorkDeps {
  readonly db: Db;
  readonly clock: Clock;
}

/**
 * Who acts: a signed-in operator (the role decides; a reason is required where the console asks
 * one), or the server's command line (whoever ran it is known to the host: recorded as
 * NO_OPERATOR, the reason optional).
 */
export type Actor = Operator | 'COMMAND_LINE';

/** The note reason a resolved change's policy note carries (the notes' reference list). */
export const RESOLUTION_NOTE_REASON = 'Payment correction';

function allowed(actor: Actor, action: OperatorAction): void {
  if (actor !== 'COMMAND_LINE' && !may(actor, action)) throw new OperatorNotAllowed(action);
}

const actorId = (actor: Actor): number => (actor === 'COMMAND_LINE' ? NO_OPERATOR : actor.id);
const reasonOf = (actor: Actor, text: string | undefined, required: boolean) =>
  checkedReason(text, required && actor !== 'COMMAND_LINE');

/** Resolves a change in ATTENTION (the money put right outside the API); the reason is required. */
export async function resolveChange(
  deps: WorkDeps,
  operator: Actor,
  id: string,
  reasonText: string | undefined,
): Promise<ResolvedChange> {
  allowed(operator, 'change.resolve');
  const reason = reasonOf(operator, reasonText, true);
  const at = deps.clock().toISOString();
  return deps.db.transaction().execute(async (tx) => {
    const resolved = await resolveAttention(tx, id, at);
    if (!resolved) throw new ChangeNotInAttention(id);
    const { before } = resolved;
    await recordOperatorAction(tx, {
      operatorId: actorId(operator),
      action: 'change.resolve',
      subjectType: 'policy_change',
      subjectId: id,
      before: {
        state: 'ATTENTION',
        policyNumber: before.policyNumber,
        kind: before.kind,
        amountMinor: before.amountMinor,
        refundedMinor: before.refundedMinor,
        outstandingMinor: before.outstandingMinor,
        ...(before.reason === undefined ? {} : { stoppedBy: before.reason }),
      },
      after: { state: 'RESOLVED' },
      ...(reason === undefined ? {} : { reason }),
      at,
    });
    // The policy's own record says it too, on the transaction the change wrote (else its latest):
    // a note the partner reads in the transaction's `notes`. The command line writes none (no operator).
    const noteReason = operator === 'COMMAND_LINE' ? undefined : await resolutionNoteReason(tx);
    if (operator !== 'COMMAND_LINE' && noteReason && reason !== undefined)
      await addPolicyNote({ db: tx, clock: () => new Date(at) }, operator, {
        policyNumber: before.policyNumber,
        ...(before.bookedSequence === undefined ? {} : { sequenceNumber: before.bookedSequence }),
        reasonId: noteReason.id,
        text: `The ${before.kind === 'CANCELLATION' ? 'cancellation' : 'amendment'} left for an operator was settled: ${reason}`,
      });
    return resolved;
  });
}

/** The note reason of a resolution: "Payment correction" while active, else the default reason, else none. */
async function resolutionNoteReason(db: Executor): Promise<NoteReason | undefined> {
  const chosen = await findReasonByText(db, RESOLUTION_NOTE_REASON);
  if (chosen?.isActive) return chosen;
  return (await listReasons(db)).find((r) => r.isDefault && r.isActive);
}

/** Makes a FAILED e-mail or webhook delivery due again with every attempt (as `documents retry`). */
export async function retryDelivery(deps: WorkDeps, operator: Actor, key: string, reasonText?: string): Promise<void> {
  allowed(operator, 'delivery.retry');
  const reason = reasonOf(operator, reasonText, false);
  const at = deps.clock().toISOString();
  await deps.db.transaction().execute(async (tx) => {
    const message = await findMessage(tx, key);
    if (message?.state !== 'FAILED' || !(await retryMessage(tx, key, at, ['FAILED']))) throw new DeliveryNotFailed(key);
    await recordOperatorAction(tx, {
      operatorId: actorId(operator),
      action: 'delivery.retry',
      subjectType: 'outbox_message',
      subjectId: key,
      before: {
        state: 'FAILED',
        kind: message.kind,
        attempts: message.attempts,
        ...(message.lastError === undefined ? {} : { lastError: message.lastError }),
      },
      after: { state: 'PENDING', attempts: 0 },
      ...(reason === undefined ? {} : { reason }),
      at,
    });
  });
}

const standing = (change: StandingChange['before']) => ({
  login: change.login,
  active: change.active,
  ...(change.deactivatedAt === undefined ? {} : { deactivatedAt: change.deactivatedAt }),
});

/** Disables (`active` false) or re-enables a partner user (auth/user-standing.ts); the reason is required. */
export async function setPartnerUserActive(
  deps: WorkDeps,
  operator: Actor,
  userId: number,
  active: boolean,
  reasonText: string | undefined,
): Promise<StandingChange> {
  allowed(operator, 'partner_user.manage');
  const reason = reasonOf(operator, reasonText, true);
  const at = deps.clock().toISOString();
  return deps.db.transaction().execute(async (tx) => {
    const change = await (active ? enableUser(tx, userId, at) : disableUser(tx, userId, at));
    await recordOperatorAction(tx, {
      operatorId: actorId(operator),
      action: active ? 'partner_user.enable' : 'partner_user.disable',
      subjectType: 'partner_user',
      subjectId: String(userId),
      before: standing(change.before),
      after: { ...standing(change.after), refreshTokensRevoked: change.revokedTokens },
      ...(reason === undefined ? {} : { reason }),
      at,
    });
    return change;
  });
}

/** Re-enables a webhook endpoint the service disabled (410 or failing too long); the reason is required. */
export async function reenableWebhookEndpoint(
  deps: WorkDeps,
  operator: Actor,
  id: string,
  reasonText: string | undefined,
): Promise<EndpointReenabled> {
  allowed(operator, 'webhook_endpoint.manage');
  const reason = reasonOf(operator, reasonText, true);
  const at = deps.clock().toISOString();
  return deps.db.transaction().execute(async (tx) => {
    const change = await reenableEndpoint(tx, id, at);
    const { before } = change;
    await recordOperatorAction(tx, {
      operatorId: actorId(operator),
      action: 'webhook_endpoint.enable',
      subjectType: 'webhook_endpoint',
      subjectId: id,
      before: {
        enabled: false,
        partnerId: before.partnerId,
        brandCode: before.brandCode,
        ...(before.disabledReason === undefined ? {} : { disabledReason: before.disabledReason }),
        ...(before.disabledAt === undefined ? {} : { disabledAt: before.disabledAt }),
        ...(before.failingSince === undefined ? {} : { failingSince: before.failingSince }),
      },
      after: { enabled: true },
      ...(reason === undefined ? {} : { reason }),
      at,
    });
    return change;
  });
}
