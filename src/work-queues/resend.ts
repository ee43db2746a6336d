import type { BrandCode } from '../kernel/brands.js';
import { requestDocumentsResend } from '../documents/resends.js';
import { recordOperatorAction } from '../operators/audit-repository.js';
import { NO_OPERATOR } from '../operators/audit.js';
import { may, type Operator } from '../operators/model.js';
import type { WorkDeps } from './actions.js';
import { OperatorNotAllowed } from './errors.js';
import { checkedReason } from './reasons.js';

/** The policy whose documents go again: its number, and the brand and partner it was sold under. */
export interface ResentPolicy {
  readonly policyNumber: string;
  readonly brandCode: BrandCode;
  readonly partnerId: number;
}

/**
 * Support resends a policy's documents (the latest transaction's, to the primary traveller): the
 * partner's own resend (documents/resends.ts), under the same budgets per policy and per partner,
 * recorded as asked by no partner user (0) and, in the same transaction, in the operators' audit
 * trail with the operator and the reason. Answers the new e-mail's outbox key.
 */
export async function resendDocuments(
  deps: WorkDeps & { readonly limits: { perPolicyPerDay: number; perPartnerPerHour: number } },
  operator: Operator,
  policy: ResentPolicy,
  reasonText: string | undefined,
): Promise<string> {
  if (!may(operator, 'document.resend')) throw new OperatorNotAllowed('document.resend');
  const reason = checkedReason(reasonText, false);
  const at = deps.clock().toISOString();
  return requestDocumentsResend(deps, policy, { userId: NO_OPERATOR, at, limits: deps.limits }, (tx) =>
    recordOperatorAction(tx, {
      operatorId: operator.id,
      action: 'document.resend',
      subjectType: 'policy',
      subjectId: policy.policyNumber,
      ...(reason ? { reason } : {}),
      at,
    }),
  );
}
