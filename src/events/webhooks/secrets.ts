import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { seal, unseal } from '../../kernel/crypto/seal.js';

/** HKDF label of webhook secrets: the key that seals them opens nothing else. */
const WEBHOOK_SECRET_INFO = 'partner-api webhook secret';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the HMAC-SHA256 key). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A new public endpoint id: `whe_` + 22 base64url characters (128 random bits). */
export function newEndpointId(): string {
  return `whe_${randomBytes(16).toString('base64url')}`;
}

/** Sealed under KEY_ENCRYPTION_SECRET, bound to its endpoint. */
export function sealWebhookSecret(keySecret: string, endpointId: string, secret: string): string {
  return seal(keySecret, { info: WEBHOOK_SECRET_INFO, bound: endpointId }, secret);
}

export function openWebhookSecret(keySecret: string, endpointId: string, sealed: string): string {
  const secret = unseal(keySecret, { info: WEBHOOK_SECRET_INFO, bound: endpointId }, sealed);
  // Never the value: only that it does not open (a changed KEY_ENCRYPTION_SECRET).
  if (secret === undefined)
    throw new Error(`Webhook secret of ${endpointId} cannot be opened with KEY_ENCRYPTION_SECRET.`);
  return secret;
}

/**
 * The Standard Webhooks headers of one delivery: `webhook-signature` holds one `v1,…` per secret
 * (the current one first, then the previous one while its rotation overlap lasts).
 */
export function signedHeaders(
  secrets: readonly string[],
  message: { id: string; at: Date; body: string },
): Record<string, string> {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(message.id, message.at, message.body)).join(' '),
  };
}
