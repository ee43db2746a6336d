import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The hosted page's CSRF token (security checklist 54): no session and no cookie, so no
 * synchronizer token to keep; an HMAC-SHA256 of the link's id and the form's step, keyed by a key
 * derived from KEY_ENCRYPTION_SECRET. Only this server can make it, it is worth nothing for another
 * link or another step, and it is compared in constant time. (No CSRF library is installed; the
 * link value in the URL is itself a secret a forging site would need.)
 */
export const FORM_STEPS = ['who', 'answers', 'complete'] as const;
export type FormStep = (typeof FORM_STEPS)[number];

const keys = new Map<string, Buffer>();
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'screening page form token', 32));
    keys.set(secret, key);
  }
  return key;
}

export function formToken(secret: string, linkId: string, step: FormStep): string {
  return createHmac('sha256', keyOf(secret)).update(`${linkId}\n${step}`).digest('base64url');
}

export function isFormToken(secret: string, linkId: string, step: FormStep, sent: unknown): boolean {
  if (typeof sent !== 'string' || sent.length > 100) return false;
  const expected = Buffer.from(formToken(secret, linkId, step));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
