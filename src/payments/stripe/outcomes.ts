import Stripe from 'stripe';
import type { AuthorisationOutcome, GatewayError, Money, SettlementOutcome, ThreeDsStatus } from '../gateway.js';

/**
 * What Stripe's answers mean to the money flow (pure): a PaymentIntent's status, or an error the
 * SDK threw, becomes one of the gateway's outcomes. Business outcomes are values, never exceptions.
 */

/** How long a cardholder has to answer a challenge (the contract's 15 minutes), counted from the intent's creation. */
export const CHALLENGE_TTL_MS = 15 * 60 * 1000;

/** Stripe's code on an intent whose 3-D Secure authentication the cardholder failed. */
const AUTHENTICATION_FAILED = 'payment_intent_authentication_failure';

export const moneyOf = (intent: Stripe.PaymentIntent, amountMinor = intent.amount): Money => ({
  amountMinor,
  currency: intent.currency.toUpperCase(),
});

export const challengeExpiresAt = (intent: Stripe.PaymentIntent): Date =>
  new Date(intent.created * 1000 + CHALLENGE_TTL_MS);

function gatewayError(code: string, message: string, retryable: boolean): GatewayError {
  return { outcome: 'gateway_error', code, message, retryable };
}

const UNEXPECTED = (status: string) =>
  gatewayError('STRIPE_UNEXPECTED_STATE', `The PaymentIntent is ${status}.`, false);

/** A refused card: why, as the contract names it, from Stripe's error code and decline code. */
function refusal(
  paymentId: string,
  error: { code?: string | undefined; decline_code?: string | undefined },
  threeDSStatus: ThreeDsStatus,
): AuthorisationOutcome {
  if (error.decline_code === 'insufficient_funds' || error.code === 'insufficient_funds')
    return { outcome: 'insufficient_funds', paymentId, threeDSStatus };
  if (error.code === AUTHENTICATION_FAILED)
    return { outcome: 'declined', paymentId, reason: 'THREEDS_CHALLENGE_FAILED', threeDSStatus: 'CHALLENGE_FAILED' };
  return { outcome: 'declined', paymentId, reason: 'DO_NOT_HONOUR', threeDSStatus };
}

/**
 * An intent after confirmation (or as retrieved after a challenge, `afterChallenge`): held,
 * challenged, refused or in a state this adapter never leaves an intent in.
 */
export function authorisationOfIntent(intent: Stripe.PaymentIntent, afterChallenge = false): AuthorisationOutcome {
  const paymentId = intent.id;
  switch (intent.status) {
    case 'requires_capture':
      return {
        outcome: 'approved',
        paymentId,
        amount: moneyOf(intent),
        threeDSStatus: afterChallenge ? 'CHALLENGE_COMPLETED' : 'NOT_REQUIRED',
      };
    case 'requires_action': {
      const url = intent.next_action?.redirect_to_url?.url;
      if (!url)
        return gatewayError('STRIPE_UNSUPPORTED_ACTION', 'Stripe asked for an action other than a redirect.', false);
      return {
        outcome: 'challenge_required',
        paymentId,
        challenge: {
          challengeId: paymentId,
          threeDSStatus: 'CHALLENGE_REQUIRED',
          threeDSRequestPattern: 'REDIRECT',
          threeDSResponse: url,
          expiresAt: challengeExpiresAt(intent).toISOString(),
        },
      };
    }
    case 'requires_payment_method': {
      const error = intent.last_payment_error;
      if (!error) return UNEXPECTED(intent.status);
      return refusal(paymentId, error, afterChallenge ? 'CHALLENGE_FAILED' : 'NOT_REQUIRED');
    }
    case 'canceled':
      return gatewayError('PAYMENT_VOIDED', 'The payment was cancelled.', false);
    default:
      return UNEXPECTED(intent.status);
  }
}

/** An error Stripe answered or the SDK met, for a call that was to authorise. */
export function authorisationOfError(error: unknown): AuthorisationOutcome {
  if (error instanceof Stripe.errors.StripeCardError) {
    const raw = error.raw as { payment_intent?: { id?: string } };
    return refusal(raw.payment_intent?.id ?? '', error, 'NOT_REQUIRED');
  }
  // An unknown PaymentMethod id: the token names no card.
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    error.code === 'resource_missing' &&
    error.param === 'payment_method'
  )
    return { outcome: 'declined', paymentId: '', reason: 'INVALID_CARD_TOKEN', threeDSStatus: 'NOT_REQUIRED' };
  return gatewayErrorOf(error);
}

/** An error Stripe answered to capture, cancel or refund: the payment does not allow it (rejected), or a failure. */
export function settlementOfError(error: unknown, paymentId: string): SettlementOutcome {
  if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError)
    return {
      outcome: 'rejected',
      paymentId,
      code: (error.code ?? 'STRIPE_INVALID_REQUEST').toUpperCase(),
      message: 'Stripe refused the call for this payment.',
    };
  return gatewayErrorOf(error);
}

/**
 * A failure of the call itself: the network, a timeout, Stripe's 5xx and rate limits may pass
 * (retryable: the same key replays); a bad key, a key reused for another call, anything else may not.
 * The message never carries Stripe's text (it may quote the request).
 */
export function gatewayErrorOf(error: unknown): GatewayError {
  if (error instanceof Stripe.errors.StripeConnectionError)
    return gatewayError('STRIPE_UNREACHABLE', 'Stripe could not be reached in time.', true);
  if (error instanceof Stripe.errors.StripeRateLimitError)
    return gatewayError('STRIPE_RATE_LIMITED', 'Stripe asked us to slow down.', true);
  if (
    error instanceof Stripe.errors.StripeAPIError ||
    (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500)
  )
    return gatewayError('STRIPE_API_ERROR', 'Stripe failed to answer.', true);
  if (error instanceof Stripe.errors.StripeIdempotencyError)
    return gatewayError('STRIPE_IDEMPOTENCY_CONFLICT', 'Stripe holds another call under this key.', false);
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError)
    return gatewayError('STRIPE_AUTHENTICATION', 'Stripe refused our key.', false);
  if (error instanceof Stripe.errors.StripeError)
    return gatewayError('STRIPE_INVALID_REQUEST', 'Stripe refused the call.', false);
  return gatewayError('STRIPE_CLIENT_ERROR', 'The call to Stripe failed.', true);
}

/** Stripe's answer was an idempotency conflict (the same key carried other parameters first). */
export const isIdempotencyConflict = (error: unknown): boolean => error instanceof Stripe.errors.StripeIdempotencyError;
