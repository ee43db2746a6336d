import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { enqueue } from '../db/outbox/repository.js';
import { PolicyNotFound } from '../policies/errors.js';
import { findPolicy } from '../policies/repository.js';
import type { PolicyLookup } from '../policies/repository-read.js';
import { DocumentResendLimited } from './errors.js';
import { resendDocumentsMessage } from './messages.js';
import { purgeResendBudgets, recordResend, takeResendBudget } from './repository-resends.js';

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
  const day = `${resend.at.slice(0, 10)}T00:00:00.000Z`;
  const hour = `${resend.at.slice(0, 13)}:00:00.000Z`;
  const secondsUntil = (start: string, ms: number) =>
    Math.max(1, Math.ceil((Date.parse(start) + ms - Date.parse(resend.at)) / 1000));
  await deps.db.transaction().execute(async (tx) => {
    // Windows that ended over a day ago count for nothing now.
    await purgeResendBudgets(tx, new Date(Date.parse(day) - 86_400_000).toISOString());
    const { perPolicyPerDay, perPartnerPerHour } = resend.limits;
    const policyScope = { scope: `policy:${policy.policyNumber}`, windowStart: day, limit: perPolicyPerDay };
    if (!(await takeResendBudget(tx, policyScope)))
      throw new DocumentResendLimited('policy', perPolicyPerDay, secondsUntil(day, 86_400_000));
    const partnerScope = { scope: `partner:${String(lookup.partnerId)}`, windowStart: hour, limit: perPartnerPerHour };
    if (!(await takeResendBudget(tx, partnerScope)))
      throw new DocumentResendLimited('partner', perPartnerPerHour, secondsUntil(hour, 3_600_000));
    await recordResend(tx, {
      policyNumber: policy.policyNumber,
      partnerId: lookup.partnerId,
      userId: resend.userId,
      toOtherAddress: resend.emailAddress !== undefined,
      messageKey: message.key,
      requestedAt: resend.at,
    });
    await enqueue(tx, message);
  });
  return message.key;
}
