/** Standard Webhooks verification and signing with WebCrypto only (Node, Deno, Bun, edge, browsers). */

const TOLERANCE_SECONDS = 5 * 60;
const encoder = new TextEncoder();

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(bag).find((key) => key.toLowerCase() === name);
  const value = found === undefined ? undefined : bag[found];
  return Array.isArray(value) ? value.join(' ') : value;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

async function hmac(secret: string, content: string): Promise<string> {
  const raw = fromBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(content))));
}

/** Compares in time that depends only on the lengths, not on where the strings differ. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks a delivery against the endpoint's secret from the raw body (as received, before any JSON
 * parse) and returns the parsed event; throws WebhookVerificationError otherwise.
 */
export async function verify<T = unknown>(
  rawBody: string,
  headers: HeaderBag,
  secret: string,
  now: Date = new Date(),
): Promise<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook headers');
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  if (Math.abs(now.getTime() / 1000 - seconds) > TOLERANCE_SECONDS) {
    throw new WebhookVerificationError('Timestamp outside the tolerance');
  }
  const expected = await hmac(secret, `${id}.${timestamp}.${rawBody}`);
  const match = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => constantTimeEqual(entry.slice(3), expected));
  if (!match) throw new WebhookVerificationError('No matching signature');
  return JSON.parse(rawBody) as T;
}

/** Signs a payload as the server does: the headers of a delivery, for a partner's own tests. */
export async function sign(
  rawBody: string,
  secret: string,
  options: { id?: string; timestamp?: Date } = {},
): Promise<Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>> {
  const id = options.id ?? `msg_${crypto.randomUUID()}`;
  const timestamp = String(Math.floor((options.timestamp ?? new Date()).getTime() / 1000));
  const signature = await hmac(secret, `${id}.${timestamp}.${rawBody}`);
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
