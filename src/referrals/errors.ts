import { Conflict, Forbidden, InvalidInput, NotFound } from '../kernel/errors.js';
import type { ReferralStatus } from './model.js';

/** Why a purchase is refused by the quote's referral, by its status (purchases/service.ts asks first). */
export class QuoteReferred extends Conflict {
  constructor(status: ReferralStatus) {
    super(
      'QUOTE_REFERRED',
      status === 'INFORMATION_REQUESTED'
        ? 'The quote is referred to an underwriter who asks for information (see the quote’s referral); it cannot be bought until approved.'
        : 'The quote is referred to an underwriter; it cannot be bought until the referral is approved.',
      { property: 'quote.id', tokens: { referralStatus: status } },
    );
  }
}

export class QuoteReferralDeclined extends Conflict {
  constructor() {
    super('QUOTE_REFERRAL_DECLINED', 'An underwriter declined this quote; it cannot be bought.', {
      property: 'quote.id',
      tokens: { referralStatus: 'DECLINED' },
    });
  }
}

export class QuoteReferralWithdrawn extends Conflict {
  constructor() {
    super(
      'QUOTE_REFERRAL_WITHDRAWN',
      'The referral of this quote was withdrawn; it cannot be bought as it is (change it to be judged again).',
      { property: 'quote.id', tokens: { referralStatus: 'WITHDRAWN' } },
    );
  }
}

/** Withdrawing a quote that has no referral waiting. */
export class NoReferralToWithdraw extends Conflict {
  constructor(status?: ReferralStatus) {
    super('REFERRAL_NOT_OPEN', 'The quote has no referral waiting for an underwriter to withdraw.', {
      property: 'quoteId',
      ...(status ? { tokens: { referralStatus: status } } : {}),
    });
  }
}

export class ReferralNotFound extends NotFound {
  constructor(id: string) {
    super('REFERRAL_NOT_FOUND', 'No referral with this id exists.', { property: 'referralId', value: id });
  }
}

/** The referral was decided or withdrawn already (or meanwhile, by a concurrent decision). */
export class ReferralAlreadyDecided extends Conflict {
  constructor(status: ReferralStatus) {
    super('REFERRAL_ALREADY_DECIDED', `The referral is ${status} already; it cannot be decided again.`, {
      property: 'referralId',
      tokens: { referralStatus: status },
    });
  }
}

/** The referral or its quote changed while the decision was being made: read it again. */
export class ReferralChanged extends Conflict {
  constructor() {
    super('REFERRAL_CHANGED', 'The referral or its quote changed meanwhile; read it again and decide again.', {
      property: 'referralId',
    });
  }
}

/** The operator's role does not allow this decision (or not at this premium). */
export class ReferralNotAllowed extends Forbidden {
  constructor(action: string) {
    super('REFERRAL_NOT_ALLOWED', `Your role may not ${action} this referral.`, { property: 'referralId' });
  }
}

/** A second approval by the operator who gave the first. */
export class SecondApproverRequired extends Conflict {
  constructor() {
    super(
      'SECOND_APPROVER_REQUIRED',
      'This approval needs a second, different senior underwriter: you gave the first approval.',
      { property: 'referralId' },
    );
  }
}

/** The second approval names other terms than the first. */
export class ApprovalTermsDiffer extends Conflict {
  constructor() {
    super(
      'APPROVAL_TERMS_DIFFER',
      'The second approval must confirm the loading and extra excess of the first approval.',
      { property: 'loadingPercentage' },
    );
  }
}

export class DecisionInvalid extends InvalidInput {
  constructor(property: string, message: string) {
    super('FIELD_INVALID', message, { property });
  }
}
