import Stripe from 'stripe';
import type { StripeSettings } from '../../config/payments.js';
import type { Clock } from '../../context.js';
import type {
  AuthorisationOutcome,
  AuthoriseRequest,
  CaptureRequest,
  ContinueThreeDsRequest,
  PaymentGateway,
  RefundRequest,
  SettlementOutcome,
  VoidRequest,
} from '../gateway.js';
import {
  authorisationOfError,
  authorisationOfIntent,
  challengeExpiresAt,
  isIdempotencyConflict,
  moneyOf,
  settlementOfError,
} from './outcomes.js';

export interface StripeGatewayOptions {
  readonly settings: StripeSettings;
  readonly clock: Clock;
  /** Where Stripe sends the cardholder's browser after a challenge when the checkout names no page of the partner's. */
  readonly defaultReturnUrl: string;
}

/** The SDK client: host, port and protocol (a stand-in in tests and demos), timeout and the SDK's own retries. */
export function stripeClientOf(settings: StripeSettings): Stripe {
  return new Stripe(settings.secretKey, {
    host: settings.host,
    port: settings.port,
    protocol: settings.protocol,
    timeout: settings.timeoutMs,
    maxNetworkRetries: settings.maxNetworkRetries,
    telemetry: false,
    appInfo: { name: 'travel-insurance-partner-api' },
  });
}

/**
 * The card gateway through Stripe's PaymentIntents with manual capture. Every POST carries our
 * idempotency key (derived from the purchase or change), so a retry from any process, and the
 * SDK's own retries, replay Stripe's first answer instead of charging again.
 *
 * Authorise is two calls: create the intent (parameters fixed by the record alone, key `K`), then
 * confirm it with the page to return to (key `K:confirm`). A replay without the checkout (recovery)
 * thus still finds the intent: when Stripe refuses the confirm's key for other parameters (the
 * first confirm carried the partner's page), the intent is read instead.
 */
export class StripeGateway implements PaymentGateway {
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeGatewayOptions) {
    this.stripe = stripeClientOf(options.settings);
  }

  async authorise(request: AuthoriseRequest): Promise<AuthorisationOutcome> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amount.amountMinor,
          currency: request.amount.currency.toLowerCase(),
          capture_method: 'manual',
          payment_method: request.cardToken,
          metadata: { reference: request.reference },
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      return authorisationOfError(error);
    }
    // A replay answers the intent as first created: confirm whenever it was created unconfirmed.
    if (intent.status !== 'requires_confirmation') return authorisationOfIntent(intent);
    const returnUrl = request.checkout?.returnUrl ?? this.options.defaultReturnUrl;
    try {
      const confirmed = await this.stripe.paymentIntents.confirm(
        intent.id,
        { return_url: returnUrl },
        { idempotencyKey: `${request.idempotencyKey}:confirm` },
      );
      return authorisationOfIntent(confirmed);
    } catch (error) {
      if (isIdempotencyConflict(error)) return this.retrieved(intent.id, false);
      return authorisationOfError(error);
    }
  }

  /**
   * Stripe's record of the challenge decides, not the partner's echo: held → approved; refused →
   * declined; not answered yet → the same challenge again, until it expires (then the intent is
   * cancelled, so a late answer can hold nothing, and the payment is declined as expired).
   */
  async continueThreeDs(request: ContinueThreeDsRequest): Promise<AuthorisationOutcome> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.retrieve(request.paymentId);
    } catch (error) {
      return authorisationOfError(error);
    }
    if (intent.status !== 'requires_action' || challengeExpiresAt(intent) > this.options.clock())
      return authorisationOfIntent(intent, true);
    try {
      const cancelled = await this.stripe.paymentIntents.cancel(
        intent.id,
        { cancellation_reason: 'abandoned' },
        { idempotencyKey: `${request.idempotencyKey}:expire` },
      );
      if (cancelled.status !== 'canceled') return authorisationOfIntent(cancelled, true);
    } catch (error) {
      // The cardholder answered meanwhile: the intent left requires_action, its state decides.
      if (!isIdempotencyConflict(error) && settlementOfError(error, intent.id).outcome === 'rejected')
        return this.retrieved(intent.id, true);
      return authorisationOfError(error);
    }
    return {
      outcome: 'declined',
      paymentId: intent.id,
      reason: 'THREEDS_CHALLENGE_EXPIRED',
      threeDSStatus: 'CHALLENGE_FAILED',
    };
  }

  async capture(request: CaptureRequest): Promise<SettlementOutcome> {
    try {
      const intent = await this.stripe.paymentIntents.capture(
        request.paymentId,
        { amount_to_capture: request.amount.amountMinor },
        { idempotencyKey: request.idempotencyKey },
      );
      if (intent.status !== 'succeeded')
        return {
          outcome: 'rejected',
          paymentId: intent.id,
          code: 'NOT_CAPTURED',
          message: `The payment is ${intent.status}.`,
        };
      return { outcome: 'captured', paymentId: intent.id, amount: request.amount };
    } catch (error) {
      return settlementOfError(error, request.paymentId);
    }
  }

  /** Cancels the intent: releases a hold, or abandons a challenge (which held nothing). */
  async void(request: VoidRequest): Promise<SettlementOutcome> {
    try {
      const intent = await this.stripe.paymentIntents.cancel(
        request.paymentId,
        {},
        { idempotencyKey: request.idempotencyKey },
      );
      return {
        outcome: 'voided',
        paymentId: intent.id,
        amount: moneyOf(intent, intent.latest_charge ? intent.amount : 0),
      };
    } catch (error) {
      return settlementOfError(error, request.paymentId);
    }
  }

  async refund(request: RefundRequest): Promise<SettlementOutcome> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: request.paymentId, amount: request.amount.amountMinor },
        { idempotencyKey: request.idempotencyKey },
      );
      if (refund.status === 'failed' || refund.status === 'canceled')
        return {
          outcome: 'rejected',
          paymentId: request.paymentId,
          code: 'REFUND_FAILED',
          message: `The refund ${refund.status}.`,
        };
      return { outcome: 'refunded', paymentId: request.paymentId, amount: request.amount };
    } catch (error) {
      return settlementOfError(error, request.paymentId);
    }
  }

  private async retrieved(paymentId: string, afterChallenge: boolean): Promise<AuthorisationOutcome> {
    try {
      return authorisationOfIntent(await this.stripe.paymentIntents.retrieve(paymentId), afterChallenge);
    } catch (error) {
      return authorisationOfError(error);
    }
  }
}
