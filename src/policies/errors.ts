import { Conflict, NotFound, Unprocessable } from '../kernel/errors.js';

/** Unknown number, another partner's policy, or another brand's: the caller cannot tell which. */
export class PolicyNotFound extends NotFound {
  constructor(policyNumber: string) {
    super('POLICY_NOT_FOUND', `Policy '${policyNumber}' does not exist.`, {
      property: 'policyNumber',
      value: policyNumber,
    });
  }
}

/** The purchase handed issuance something a policy cannot record (a defect of the caller). */
export class InvalidPolicyIssue extends Unprocessable {
  constructor(property: string, message: string) {
    super('POLICY_ISSUE_INVALID', message, { property });
  }
}

/** A quote becomes at most one policy. */
export class PolicyAlreadyIssued extends Conflict {
  constructor(quoteId: string) {
    super('POLICY_ALREADY_ISSUED', `Quote '${quoteId}' has already been issued as a policy.`, {
      property: 'quote.id',
      value: quoteId,
    });
  }
}
