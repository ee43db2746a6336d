import { redactCardNumbers } from '../kernel/card-numbers/card-numbers.js';
import { Conflict, Forbidden, InvalidInput } from '../kernel/errors.js';

/** An id or key as typed or posted, shown back in a refusal: never a card number. */
const shown = (text: string): string => redactCardNumbers(text).slice(0, 200);

/** The operator's role may not do this (pages check first; services check again). */
export class OperatorNotAllowed extends Forbidden {
  constructor(action: string) {
    super('OPERATOR_NOT_ALLOWED', `Your role may not do this (${action}).`);
  }
}

/** A reason that is empty, too long, or holds what no reason may (a card number). */
export class ReasonRefused extends InvalidInput {
  constructor(why: string) {
    super('REASON_REFUSED', why, { property: 'reason' });
  }
}

/** The change is unknown or no longer in ATTENTION (another operator resolved it first). */
export class ChangeNotInAttention extends Conflict {
  constructor(id: string) {
    super('CHANGE_NOT_IN_ATTENTION', `Change ${shown(id)} is not waiting for an operator (resolved already?).`, {
      property: 'change',
    });
  }
}

/** The message is unknown or no longer FAILED (retried already, or sent). */
export class DeliveryNotFailed extends Conflict {
  constructor(key: string) {
    super('DELIVERY_NOT_FAILED', `Delivery ${shown(key)} is not failed (retried already?).`, { property: 'key' });
  }
}
