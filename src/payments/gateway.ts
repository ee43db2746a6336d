/**
 * The payment gateway seam. The money flow (flow/flow.ts) speaks only this interface; `sandbox` is the
 * staging adapter, a card processor's adapter would be another implementation.
 *
 * Every call carries an `idempotencyKey` the caller derives from its own record (for example
 * `purchase:<purchaseId>:authorise`), so a retried call, even from another process after a
 * crash, returns the first call's result and never charges twice. Business outcomes (declines,
 * challenges, outages) are values, never exceptions.
 */

import type { PaymentMethod } from '../kernel/money/payment-methods.js';

/** An amount in the currency's minor unit (cents), with its ISO 4217 code. */
export interface Money {
  readonly amountMinor: number;
  readonly currency: string;
}

/** 3-D Secure state of a payment, as partners see it in `threeDSStatus` (docs/api-contract.md). */
export const THREE_DS_STATUSES = [
  'NOT_REQUIRED',
  'FRICTIONLESS',
  'CHALLENGE_REQUIRED',
  'CHALLENGE_COMPLETED',
  'CHALLENGE_FAILED',
] as const;
export type ThreeDsStatus = (typeof THREE_DS_STATUSES)[number];

/** What the cardholder's browser must do to complete a challenge (spec §2.3 ThreeDsResponseInfo). */
export interface ThreeDsChallenge {
  readonly challengeId: string;
  readonly threeDSStatus: 'CHALLENGE_REQUIRED';
  /** How to present `threeDSResponse`: `REDIRECT` = open the URL in the cardholder's browser. */
  readonly threeDSRequestPattern: 'REDIRECT';
  /** The absolute challenge URL served by the issuer (the sandbox itself in staging). */
  readonly threeDSResponse: string;
  /** ISO 8601 UTC instant after which the challenge can no longer be completed. */
  readonly expiresAt: string;
}

export interface AuthoriseRequest {
  readonly idempotencyKey: string;
  readonly amount: Money;
  /** A tokenised card (spec §2.3 CardTokenInput.token); never a card number. */
  readonly cardToken: string;
  /** The merchant's reference for the payment (a purchase id); shown to operators only. */
  readonly reference: string;
  /** What a challenge page shows; presentation only, not part of the call (a replay without it is the same call). */
  readonly checkout?: Checkout;
}

/** What the cardholder sees of the merchant on a 3-D Secure challenge, and where the browser goes after it. */
export interface Checkout {
  /** The brand selling the policy: the merchant the cardholder pays. */
  readonly merchantName: string;
  /** The partner's page to return to after the answer (`threeDSRequestInfo.origin`): an http(s) URL, else none. */
  readonly returnUrl?: string;
}

export interface ContinueThreeDsRequest {
  readonly idempotencyKey: string;
  readonly paymentId: string;
  /** Echoes `threeDSRequestInfo.threeDSStatus`: `CHALLENGE_COMPLETED` or `CHALLENGE_FAILED`. */
  readonly threeDSStatus: string;
  /** Echoes `threeDSRequestInfo.threeDSRequest`: the challenge URL received (or its last segment). */
  readonly threeDSRequest: string;
}

export interface CaptureRequest {
  readonly idempotencyKey: string;
  readonly paymentId: string;
  readonly amount: Money;
}

export interface VoidRequest {
  readonly idempotencyKey: string;
  readonly paymentId: string;
}

export type RefundRequest = CaptureRequest;

/** Why a card was refused; `INSUFFICIENT_FUNDS` has its own outcome. */
export type DeclineReason =
  'DO_NOT_HONOUR' | 'INVALID_CARD_TOKEN' | 'THREEDS_CHALLENGE_FAILED' | 'THREEDS_CHALLENGE_EXPIRED';

/** A problem at or with the gateway; `retryable` says whether the same call may succeed later. */
export interface GatewayError {
  readonly outcome: 'gateway_error';
  readonly code: string;
  readonly message: string;
  readonly retryable: boolean;
}

/** The answer to authorise and to 3-D Secure continuation. */
export type AuthorisationOutcome =
  | {
      readonly outcome: 'approved';
      readonly paymentId: string;
      readonly amount: Money;
      readonly threeDSStatus: ThreeDsStatus;
    }
  | {
      readonly outcome: 'declined';
      readonly paymentId: string;
      readonly reason: DeclineReason;
      readonly threeDSStatus: ThreeDsStatus;
    }
  | { readonly outcome: 'insufficient_funds'; readonly paymentId: string; readonly threeDSStatus: ThreeDsStatus }
  | { readonly outcome: 'challenge_required'; readonly paymentId: string; readonly challenge: ThreeDsChallenge }
  | GatewayError;

/** The answer to capture, void and refund. */
export type SettlementOutcome =
  | {
      readonly outcome: 'captured' | 'voided' | 'refunded';
      readonly paymentId: string;
      /** Captured, voided (the released hold) or refunded by this call. */
      readonly amount: Money;
    }
  /** The payment is not in a state that allows this (already voided, amount too large, unknown id). */
  | { readonly outcome: 'rejected'; readonly paymentId: string; readonly code: string; readonly message: string }
  | GatewayError;

export interface PaymentGateway {
  /** Places a hold for `amount` on the card, or asks for a 3-D Secure challenge first. */
  authorise(request: AuthoriseRequest): Promise<AuthorisationOutcome>;
  /** After the cardholder answered a challenge: authorises (only now is the card held) or declines. */
  continueThreeDs(request: ContinueThreeDsRequest): Promise<AuthorisationOutcome>;
  /** Charges (part of) an approved hold. */
  capture(request: CaptureRequest): Promise<SettlementOutcome>;
  /** Releases an uncaptured hold, or abandons a pending challenge. */
  void(request: VoidRequest): Promise<SettlementOutcome>;
  /** Returns (part of) a captured amount. */
  refund(request: RefundRequest): Promise<SettlementOutcome>;
}

/** Which gateway moves a record's money: the brand's card gateway, or the partner's account. */
export interface PaymentRoute {
  readonly brandCode: string;
  readonly paymentMethod: PaymentMethod;
  /** The partner that sold: whose account an `ON_ACCOUNT` payment is on. */
  readonly partnerId: number;
}

/** The gateways of this process, by route (payments/gateways.ts builds them from the configuration). */
export interface PaymentGateways {
  gatewayFor(route: PaymentRoute): PaymentGateway;
}

/** One gateway for every route: what a test that injects its own gateway hands the money flow. */
export const everyRouteTo = (gateway: PaymentGateway): PaymentGateways => ({ gatewayFor: () => gateway });

/** Values of the purchase response's `paymentResult` (docs/api-contract.md, "Payments"). */
export const PAYMENT_RESULTS = [
  'APPROVED',
  'DECLINED',
  'INSUFFICIENT_FUNDS',
  'THREEDS_CHALLENGE_REQUIRED',
  'GATEWAY_ERROR',
] as const;
export type PaymentResult = (typeof PAYMENT_RESULTS)[number];
