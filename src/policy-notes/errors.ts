import { Conflict, Forbidden, InvalidInput, NotFound } from '../kernel/errors.js';

/** The reason does not exist or is no longer offered. */
export class NoteReasonNotUsable extends InvalidInput {
  constructor(reasonId: number) {
    super('NOTE_REASON_NOT_USABLE', `Note reason ${String(reasonId)} does not exist or is no longer active.`, {
      property: 'reasonId',
      value: String(reasonId),
    });
  }
}

/** A note's text is empty, too long, or holds control characters. */
export class InvalidNoteText extends InvalidInput {
  constructor(message: string) {
    super('NOTE_TEXT_INVALID', message, { property: 'text' });
  }
}

/** No policy with that number, or no transaction with that sequence number. */
export class NotedPolicyNotFound extends NotFound {
  constructor(policyNumber: string, sequenceNumber?: number) {
    super(
      'POLICY_NOT_FOUND',
      sequenceNumber === undefined
        ? `Policy '${policyNumber}' does not exist.`
        : `Policy '${policyNumber}' has no transaction ${String(sequenceNumber)}.`,
      { property: 'policyNumber', value: policyNumber },
    );
  }
}

/** The reason list's rules: one default, which stays active; reason texts are unique. */
export class NoteReasonConflict extends Conflict {
  constructor(message: string) {
    super('NOTE_REASON_CONFLICT', message);
  }
}

/** The operator's role does not allow the action. */
export class OperatorNotAllowed extends Forbidden {
  constructor(action: string) {
    super('OPERATOR_NOT_ALLOWED', `The operator's role does not allow ${action}.`);
  }
}
