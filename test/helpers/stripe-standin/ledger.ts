import { randomBytes } from 'node:crypto';
import {
  errorAnswer,
  idOf,
  intentObject,
  invalid,
  missing,
  noSuch,
  nowSeconds,
  refundObject,
  unexpectedState,
  type Answer,
  type Intent,
  type Refund,
} from './objects.js';

/**
 * What Stripe's test mode does with its published test PaymentMethods
 * (https://docs.stripe.com/testing): approve, decline, decline for funds, or ask for 3-D Secure.
 * Any other `pm_card_…` approves; anything else is no PaymentMethod at all.
 */
export const TEST_PAYMENT_METHODS = {
  approve: 'pm_card_visa',
  decline: 'pm_card_chargeDeclined',
  insufficientFunds: 'pm_card_chargeDeclinedInsufficientFunds',
  authenticationRequired: 'pm_card_authenticationRequired',
  threeDSecure2Required: 'pm_card_threeDSecure2Required',
} as const;

type Behaviour = 'approve' | 'decline' | 'insufficient_funds' | 'challenge' | 'unknown';

function behaviourOf(paymentMethod: string): Behaviour {
  switch (paymentMethod) {
    case TEST_PAYMENT_METHODS.decline:
      return 'decline';
    case TEST_PAYMENT_METHODS.insufficientFunds:
      return 'insufficient_funds';
    case TEST_PAYMENT_METHODS.authenticationRequired:
    case TEST_PAYMENT_METHODS.threeDSecure2Required:
      return 'challenge';
    default:
      return /^pm_card_[A-Za-z0-9]+$/.test(paymentMethod) ? 'approve' : 'unknown';
  }
}

type Form = URLSearchParams;

const positiveInteger = (value: string | null): number | undefined =>
  value !== null && /^[1-9][0-9]{0,10}$/.test(value) ? Number(value) : undefined;

/** One call's switch the tests may throw: the next captures fail, the next refunds are refused. */
export interface LedgerFaults {
  failCaptures: number;
  refuseRefunds: number;
}

/**
 * The stand-in's books: PaymentIntents and refunds, in memory, acted on as Stripe's API does for
 * the calls the adapter makes. Each method answers a status and Stripe's JSON body.
 */
export class Ledger {
  readonly intents = new Map<string, Intent>();
  readonly refunds = new Map<string, Refund>();
  readonly faults: LedgerFaults = { failCaptures: 0, refuseRefunds: 0 };

  constructor(private readonly challengeBase: () => string) {}

  create(form: Form): Answer {
    const amount = positiveInteger(form.get('amount'));
    if (form.get('amount') === null) return missing('amount');
    if (amount === undefined) return invalid('amount', 'Invalid integer: amount.');
    const currency = form.get('currency');
    if (!currency) return missing('currency');
    if (!/^[a-z]{3}$/.test(currency)) return invalid('currency', `Invalid currency: ${currency}.`);
    const paymentMethod = form.get('payment_method');
    if (paymentMethod !== null && behaviourOf(paymentMethod) === 'unknown')
      return noSuch('PaymentMethod', paymentMethod, 'payment_method');
    const metadata: Record<string, string> = {};
    for (const [key, value] of form) {
      const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
      if (name) metadata[name] = value;
    }
    const id = idOf('pi');
    const intent: Intent = {
      id,
      amount,
      currency,
      status: paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
      captureMethod: form.get('capture_method') === 'manual' ? 'manual' : 'automatic',
      paymentMethod,
      amountReceived: 0,
      amountRefunded: 0,
      latestCharge: null,
      lastPaymentError: null,
      challengeUrl: null,
      returnUrl: null,
      cancellationReason: null,
      canceledAt: null,
      metadata,
      created: nowSeconds(),
      clientSecret: `${id}_secret_${randomBytes(18).toString('base64url')}`,
    };
    this.intents.set(id, intent);
    if (form.get('confirm') === 'true') return this.confirmed(intent, form);
    return { status: 200, body: intentObject(intent) };
  }

  retrieve(id: string): Answer {
    const intent = this.intents.get(id);
    return intent ? { status: 200, body: intentObject(intent) } : noSuch('payment_intent', id);
  }

  confirm(id: string, form: Form): Answer {
    const intent = this.intents.get(id);
    if (!intent) return noSuch('payment_intent', id);
    const paymentMethod = form.get('payment_method');
    if (paymentMethod !== null) {
      if (behaviourOf(paymentMethod) === 'unknown') return noSuch('PaymentMethod', paymentMethod, 'payment_method');
      intent.paymentMethod = paymentMethod;
    }
    if (intent.status !== 'requires_confirmation' && intent.status !== 'requires_payment_method')
      return unexpectedState(intent, 'confirm');
    if (!intent.paymentMethod)
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: 'You cannot confirm this PaymentIntent because it has no payment method.',
      });
    return this.confirmed(intent, form);
  }

  /** The card's answer to a confirmation: a hold, a refusal (402 with the intent), or a challenge. */
  private confirmed(intent: Intent, form: Form): Answer {
    const returnUrl = form.get('return_url');
    const behaviour = behaviourOf(intent.paymentMethod ?? '');
    intent.lastPaymentError = null;
    if (behaviour === 'approve') return this.held(intent);
    if (behaviour === 'challenge') {
      if (!returnUrl)
        return errorAnswer(400, {
          type: 'invalid_request_error',
          code: 'parameter_missing',
          param: 'return_url',
          message: 'This PaymentIntent requires a return_url to authenticate the card.',
        });
      intent.status = 'requires_action';
      intent.returnUrl = returnUrl;
      const query = new URLSearchParams({
        payment_intent: intent.id,
        payment_intent_client_secret: intent.clientSecret,
      });
      intent.challengeUrl = `${this.challengeBase()}/3d_secure_2/hosted?${query.toString()}`;
      return { status: 200, body: intentObject(intent) };
    }
    const declineCode = behaviour === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline';
    const message =
      behaviour === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.';
    intent.status = 'requires_payment_method';
    intent.lastPaymentError = { type: 'card_error', code: 'card_declined', decline_code: declineCode, message };
    return errorAnswer(402, {
      type: 'card_error',
      code: 'card_declined',
      decline_code: declineCode,
      message,
      payment_intent: intentObject(intent),
    });
  }

  private held(intent: Intent): Answer {
    intent.latestCharge = idOf('ch');
    intent.status = intent.captureMethod === 'manual' ? 'requires_capture' : 'succeeded';
    if (intent.status === 'succeeded') intent.amountReceived = intent.amount;
    return { status: 200, body: intentObject(intent) };
  }

  /** The cardholder's answer on the hosted page: completed holds the card, failed refuses it. */
  answerChallenge(id: string, completed: boolean): Intent | undefined {
    const intent = this.intents.get(id);
    if (!intent || intent.status !== 'requires_action') return intent;
    if (completed) {
      this.held(intent);
      return intent;
    }
    intent.status = 'requires_payment_method';
    intent.lastPaymentError = {
      type: 'invalid_request_error',
      code: 'payment_intent_authentication_failure',
      message: 'The provided PaymentMethod has failed authentication.',
    };
    return intent;
  }

  capture(id: string, form: Form): Answer {
    const intent = this.intents.get(id);
    if (!intent) return noSuch('payment_intent', id);
    if (intent.status !== 'requires_capture') return unexpectedState(intent, 'capture');
    const raw = form.get('amount_to_capture');
    const amount = raw === null ? intent.amount : positiveInteger(raw);
    if (amount === undefined) return invalid('amount_to_capture', 'Invalid integer: amount_to_capture.');
    if (amount > intent.amount)
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        param: 'amount_to_capture',
        message: 'The amount to capture must be less than or equal to the amount capturable.',
      });
    if (this.faults.failCaptures > 0) {
      this.faults.failCaptures -= 1;
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'charge_expired_for_capture',
        message: 'This charge has expired for capture.',
      });
    }
    intent.amountReceived = amount;
    intent.status = 'succeeded';
    return { status: 200, body: intentObject(intent) };
  }

  cancel(id: string, form: Form): Answer {
    const intent = this.intents.get(id);
    if (!intent) return noSuch('payment_intent', id);
    if (intent.status === 'succeeded' || intent.status === 'canceled' || intent.status === 'processing')
      return unexpectedState(intent, 'cancel');
    intent.status = 'canceled';
    intent.canceledAt = nowSeconds();
    intent.cancellationReason = form.get('cancellation_reason') ?? 'requested_by_customer';
    return { status: 200, body: intentObject(intent) };
  }

  refund(form: Form): Answer {
    const id = form.get('payment_intent');
    if (!id) return missing('payment_intent');
    const intent = this.intents.get(id);
    if (!intent) return noSuch('payment_intent', id, 'payment_intent');
    if (intent.status !== 'succeeded')
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'charge_not_captured',
        message: `This PaymentIntent has no captured charge to refund (status ${intent.status}).`,
      });
    const left = intent.amountReceived - intent.amountRefunded;
    const raw = form.get('amount');
    const amount = raw === null ? left : positiveInteger(raw);
    if (amount === undefined) return invalid('amount', 'Invalid integer: amount.');
    if (amount > left)
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: left === 0 ? 'charge_already_refunded' : 'amount_too_large',
        param: 'amount',
        message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`,
      });
    if (this.faults.refuseRefunds > 0) {
      this.faults.refuseRefunds -= 1;
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'charge_disputed',
        message: 'This charge has been charged back; it cannot be refunded.',
      });
    }
    intent.amountRefunded += amount;
    const refund: Refund = {
      id: idOf('re'),
      amount,
      currency: intent.currency,
      charge: intent.latestCharge,
      paymentIntent: intent.id,
      status: 'succeeded',
      created: nowSeconds(),
    };
    this.refunds.set(refund.id, refund);
    return { status: 200, body: refundObject(refund) };
  }
}
