import { Secret, TOTP } from 'otpauth';
import { seal, unseal } from '../kernel/crypto/seal.js';

/**
 * The second factor: TOTP (RFC 6238) as every authenticator app reads it: SHA-1, 6 digits, 30 s.
 * A code of the step before or after the current one is accepted (clock drift, typing time).
 */
const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const WINDOW = 1;
/** The name an authenticator app shows beside the code. */
const ISSUER = 'Travel Insurance Console';
/** HKDF `info` of the sealed secret: a key derived for it opens nothing else. */
const SEAL_INFO = 'operator totp secret';

export interface NewSecondFactor {
  /** Base32, as typed into an app by hand. */
  readonly secret: string;
  /** `otpauth://totp/…`, as an app reads it from a QR code. */
  readonly uri: string;
}

/** A fresh 160-bit secret (RFC 4226's recommended length) and its provisioning URI. */
export function newSecondFactor(username: string): NewSecondFactor {
  const totp = new TOTP({ ...TOTP_PARAMS, issuer: ISSUER, label: username, secret: new Secret({ size: 20 }) });
  return { secret: totp.secret.base32, uri: totp.toString() };
}

/** The time step the code belongs to, or undefined when it is not a current code of the secret. */
export function acceptedStep(secretBase32: string, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const secret = Secret.fromBase32(secretBase32);
  const timestamp = now.getTime();
  const delta = TOTP.validate({ ...TOTP_PARAMS, secret, token: code, timestamp, window: WINDOW });
  return delta === null ? undefined : TOTP.counter({ period: TOTP_PARAMS.period, timestamp }) + delta;
}

/** The code of the secret at an instant (tests, and the demo's documentation). */
export function codeAt(secretBase32: string, at: Date): string {
  return TOTP.generate({ ...TOTP_PARAMS, secret: Secret.fromBase32(secretBase32), timestamp: at.getTime() });
}

/** Sealed under KEY_ENCRYPTION_SECRET, bound to the operator's id (a sealed value copied to another row does not open). */
export function sealSecondFactor(keySecret: string, operatorId: number, secretBase32: string): string {
  return seal(keySecret, { info: SEAL_INFO, bound: String(operatorId) }, secretBase32);
}

export function unsealSecondFactor(keySecret: string, operatorId: number, sealed: string): string | undefined {
  return unseal(keySecret, { info: SEAL_INFO, bound: String(operatorId) }, sealed);
}
