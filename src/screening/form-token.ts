import { hkdfSync } from 'node:crypto';
import { Tokens } from '@fastify/csrf';

/**
 * The hosted page's CSRF token (security checklist 54), made and checked by @fastify/csrf (the
 * library behind @fastify/csrf-protection): the page has no session and no cookie, so the token is
 * bound to what it protects instead, the link's id and the form's step (the library's `userInfo`),
 * under a secret only this server holds (derived from KEY_ENCRYPTION_SECRET). It is worth nothing
 * for another link or another step; the library compares in constant time. (The link value in the
 * URL is itself a secret a forging site would need; the token makes the form's step explicit.)
 */
export const FORM_STEPS = ['who', 'answers', 'complete'] as const;
export type FormStep = (typeof FORM_STEPS)[number];

const tokens = new Tokens({ userInfo: true });

const secrets = new Map<string, string>();
function csrfSecretOf(secret: string): string {
  let derived = secrets.get(secret);
  if (!derived) {
    const key = hkdfSync('sha256', secret, Buffer.alloc(0), 'screening page form token', 32);
    derived = Buffer.from(key).toString('base64url');
    secrets.set(secret, derived);
  }
  return derived;
}

const userInfoOf = (linkId: string, step: FormStep) => `${linkId}\n${step}`;

export function formToken(secret: string, linkId: string, step: FormStep): string {
  return tokens.create(csrfSecretOf(secret), userInfoOf(linkId, step));
}

export function isFormToken(secret: string, linkId: string, step: FormStep, sent: unknown): boolean {
  if (typeof sent !== 'string' || sent.length > 200) return false;
  return tokens.verify(csrfSecretOf(secret), sent, userInfoOf(linkId, step));
}
