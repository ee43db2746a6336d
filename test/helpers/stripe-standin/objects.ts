import { randomBytes } from 'node:crypto';

/**
 * The stand-in's objects, shaped as Stripe's published API description has them (stripe/openapi,
 * openapi/fixtures3.json `payment_intent`, `refund`; spec3.json `error`): the fields the SDK's
 * types declare, with the values this stand-in knows and null for the rest.
 */

export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface LastPaymentError {
  type: 'card_error' | 'invalid_request_error';
  code: string;
  decline_code?: string;
  message: string;
}

/** A PaymentIntent as the stand-in keeps it: the API object plus what it needs to act. */
export interface Intent {
  id: string;
  amount: number;
  currency: string;
  status: IntentStatus;
  captureMethod: 'manual' | 'automatic';
  paymentMethod: string | null;
  amountReceived: number;
  amountRefunded: number;
  latestCharge: string | null;
  lastPaymentError: LastPaymentError | null;
  challengeUrl: string | null;
  returnUrl: string | null;
  cancellationReason: string | null;
  canceledAt: number | null;
  metadata: Record<string, string>;
  created: number;
  clientSecret: string;
}

export interface Refund {
  id: string;
  amount: number;
  currency: string;
  charge: string | null;
  paymentIntent: string;
  status: 'succeeded' | 'failed' | 'pending';
  created: number;
}

/** Stripe's ids: a prefix and 24 letters and digits. */
export const idOf = (prefix: string): string =>
  `${prefix}_${randomBytes(32)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 24)}`;

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The `payment_intent` object (fixtures3.json `payment_intent`). */
export function intentObject(intent: Intent): Record<string, unknown> {
  return {
    id: intent.id,
    object: 'payment_intent',
    amount: intent.amount,
    amount_capturable: intent.status === 'requires_capture' ? intent.amount : 0,
    amount_details: { tip: {} },
    amount_received: intent.amountReceived,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: intent.canceledAt,
    cancellation_reason: intent.cancellationReason,
    capture_method: intent.captureMethod,
    client_secret: intent.clientSecret,
    confirmation_method: 'automatic',
    created: intent.created,
    currency: intent.currency,
    customer: null,
    description: null,
    last_payment_error: intent.lastPaymentError,
    latest_charge: intent.latestCharge,
    livemode: false,
    metadata: intent.metadata,
    next_action:
      intent.status === 'requires_action' && intent.challengeUrl
        ? {
            type: 'redirect_to_url',
            redirect_to_url: { return_url: intent.returnUrl, url: intent.challengeUrl },
          }
        : null,
    on_behalf_of: null,
    payment_method: intent.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: intent.status,
    transfer_data: null,
    transfer_group: null,
  };
}

/** The `refund` object (fixtures3.json `refund`). */
export function refundObject(refund: Refund): Record<string, unknown> {
  return {
    id: refund.id,
    object: 'refund',
    amount: refund.amount,
    balance_transaction: null,
    charge: refund.charge,
    created: refund.created,
    currency: refund.currency,
    destination_details: { card: { type: 'reversal' }, type: 'card' },
    metadata: {},
    payment_intent: refund.paymentIntent,
    reason: null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: refund.status,
    transfer_reversal: null,
  };
}

/** An answer of the stand-in: an HTTP status and a JSON body. */
export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** Stripe's error envelope (spec3.json `error`: type, code, decline_code, message, param, payment_intent, doc_url). */
export function errorAnswer(
  status: number,
  error: {
    type: string;
    message: string;
    code?: string;
    decline_code?: string;
    param?: string;
    payment_intent?: Record<string, unknown>;
  },
): Answer {
  const docUrl = error.code ? { doc_url: `https://stripe.com/docs/error-codes/${error.code.replace(/_/g, '-')}` } : {};
  return { status, body: { error: { ...error, ...docUrl, request_log_url: null } } };
}

export const missing = (param: string): Answer =>
  errorAnswer(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    param,
    message: `Missing required param: ${param}.`,
  });

export const invalid = (param: string, message: string): Answer =>
  errorAnswer(400, { type: 'invalid_request_error', code: 'parameter_invalid_integer', param, message });

/** An unknown object: 404 for the one in the path, 400 for one named by a parameter (as Stripe answers). */
export const noSuch = (what: string, id: string, param?: string): Answer =>
  errorAnswer(param ? 400 : 404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${what}: '${id}'`,
    ...(param ? { param } : {}),
  });

export const unexpectedState = (intent: Intent, action: string): Answer =>
  errorAnswer(400, {
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message: `This PaymentIntent's ${action} could not be performed because it has a status of ${intent.status}.`,
    payment_intent: intentObject(intent),
  });
