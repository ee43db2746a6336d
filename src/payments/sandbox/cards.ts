/**
 * The sandbox's documented test card tokens (README, "Sandbox test cards"). They stand for
 * cards a tokeniser would have issued; the sandbox never sees or accepts a card number.
 */
export const SANDBOX_CARD_TOKENS = {
  approved: 'tok_sandbox_approved',
  declined: 'tok_sandbox_declined',
  insufficientFunds: 'tok_sandbox_insufficient_funds',
  threeDsFrictionless: 'tok_sandbox_3ds_frictionless',
  threeDsChallenge: 'tok_sandbox_3ds_challenge',
  gatewayError: 'tok_sandbox_gateway_error',
  /** Authorises and captures; every refund within the captured amount is rejected (`REFUND_DECLINED`). */
  refundDeclined: 'tok_sandbox_refund_declined',
  /** Authorises and captures; every refund meets a simulated outage (retryable, never recorded). */
  refundGatewayError: 'tok_sandbox_refund_gateway_error',
} as const;

/** What the sandbox issuer does with a card at authorisation. */
export type CardBehaviour =
  'approve' | 'decline' | 'insufficient_funds' | 'frictionless' | 'challenge' | 'gateway_error' | 'unknown';

const BEHAVIOUR_BY_TOKEN: Record<string, CardBehaviour> = {
  [SANDBOX_CARD_TOKENS.approved]: 'approve',
  [SANDBOX_CARD_TOKENS.declined]: 'decline',
  [SANDBOX_CARD_TOKENS.insufficientFunds]: 'insufficient_funds',
  [SANDBOX_CARD_TOKENS.threeDsFrictionless]: 'frictionless',
  [SANDBOX_CARD_TOKENS.threeDsChallenge]: 'challenge',
  [SANDBOX_CARD_TOKENS.gatewayError]: 'gateway_error',
  [SANDBOX_CARD_TOKENS.refundDeclined]: 'approve',
  [SANDBOX_CARD_TOKENS.refundGatewayError]: 'approve',
};

export function behaviourOf(cardToken: string): CardBehaviour {
  return Object.hasOwn(BEHAVIOUR_BY_TOKEN, cardToken) ? (BEHAVIOUR_BY_TOKEN[cardToken] ?? 'unknown') : 'unknown';
}

/** What the sandbox processor does with a refund of a payment made with a card. */
export type RefundBehaviour = 'refund' | 'decline' | 'gateway_error';

const REFUND_BEHAVIOUR_BY_TOKEN: Record<string, RefundBehaviour> = {
  [SANDBOX_CARD_TOKENS.refundDeclined]: 'decline',
  [SANDBOX_CARD_TOKENS.refundGatewayError]: 'gateway_error',
};

export function refundBehaviourOf(cardToken: string): RefundBehaviour {
  return Object.hasOwn(REFUND_BEHAVIOUR_BY_TOKEN, cardToken)
    ? (REFUND_BEHAVIOUR_BY_TOKEN[cardToken] ?? 'refund')
    : 'refund';
}

/** How long a cardholder has to answer a challenge. */
export const CHALLENGE_TTL_MS = 15 * 60 * 1000;
