import { randomUUID } from 'node:crypto';
import { purgeSendBudgets, takeSendBudget, type SendBudget } from '../db/budgets/repository.js';
import { secondsLeftIn } from '../db/budgets/windows.js';
import type { Db, Tx } from '../db/database.js';
import { enqueue } from '../db/outbox/repository.js';
import { PolicyNotFound } from '../policies/errors.js';
import { findPolicy } from '../policies/repository.js';
import type { PolicyLookup } from '../policies/repository-read.js';
import { DocumentResendLimited } from './errors.js';
import { resendDocumentsMessage } from './messages.js';
import { recordResend } from './repository-resends.js';

/** Who asks for a resend, where it goes, when; and how many resends the policy and the partner may have. */
export interface ResendRequest {
  readonly userId: number;
  readonly emailAddress?: string;
  readonly at: string;
  readonly limits: { readonly perPolicyPerDay: number; readonly perPartnerPerHour: number };
}

/**
 * A partner's resend (POST …/documents/send): the latest transaction's documents again, under a
 * new key (a new e-mail), optionally to another address. 404 isolation as policy reads. Bounded
 * per policy (a UTC day) and per partner (a UTC hour): both budgets, the record of who asked and
 * the e-mail are one transaction, so a refused request leaves nothing and parallel requests
 * never pass a limit.
 */
export async function requestDocumentsResend(
  deps: { db: Db },
  lookup: PolicyLookup,
  resend: ResendRequest,
  /** Written in the same transaction (an operator's audit entry). */
  alongside?: (tx: Tx) => Promise<void>,
): Promise<string> {
  const policy = await findPolicy(deps.db, lookup);
  if (!policy) throw new PolicyNotFound(lookup.policyNumber);
  const message = resendDocumentsMessage(
    {
      policyNumber: policy.policyNumber,
      sequenceNumber: policy.sequenceNumber,
      ...(resend.emailAddress === undefined ? {} : { emailAddress: resend.emailAddress }),
      id: randomUUID(),
    },
    resend.at,
  );
  const { perPolicyPerDay, perPartnerPerHour } = resend.limits;
  const policyBudget: SendBudget = {
    scope: `resends:policy:${policy.policyNumber}`,
    window: 'day',
    limit: perPolicyPerDay,
  };
  const partnerBudget: SendBudget = {
    scope: `resends:partner:${String(lookup.partnerId)}`,
    window: 'hour',
    limit: perPartnerPerHour,
  };
  await deps.db.transaction().execute(async (tx) => {
    await purgeSendBudgets(tx, resend.at);
    if (!(await takeSendBudget(tx, policyBudget, 1, resend.at)))
      throw new DocumentResendLimited('policy', perPolicyPerDay, secondsLeftIn('day', resend.at));
    if (!(await takeSendBudget(tx, partnerBudget, 1, resend.at)))
      throw new DocumentResendLimited('partner', perPartnerPerHour, secondsLeftIn('hour', resend.at));
    await recordResend(tx, {
      policyNumber: policy.policyNumber,
      partnerId: lookup.partnerId,
      userId: resend.userId,
      toOtherAddress: resend.emailAddress !== undefined,
      messageKey: message.key,
      requestedAt: resend.at,
    });
    await enqueue(tx, message);
    await alongside?.(tx);
  });
  return message.key;
}
