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
};

export function behaviourOf(cardToken: string): CardBehaviour {
  return Object.hasOwn(BEHAVIOUR_BY_TOKEN, cardToken) ? (BEHAVIOUR_BY_TOKEN[cardToken] ?? 'unknown') : 'unknown';
}

/** How long a cardholder has to answer a challenge. */
export const CHALLENGE_TTL_MS = 15 * 60 * 1000;
