import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets kept in the database (signing keys, webhook secrets) are sealed with AES-256-GCM under a
 * key derived (HKDF-SHA256, fresh salt per value) from KEY_ENCRYPTION_SECRET. `info` names what is
 * sealed, so a key derived for one purpose never opens another's values; `bound` (the row's id) is
 * authenticated as associated data, so a sealed value copied to another row does not open.
 */
const SEAL_VERSION = 'v1';

export interface SealLabel {
  /** HKDF `info`: the purpose (`partner-api signing key`, `partner-api webhook secret`). */
  readonly info: string;
  /** Associated data: the id of the row that holds the value. */
  readonly bound: string;
}

export function seal(secret: string, label: SealLabel, plaintext: string): string {
  const salt = randomBytes(16);
  const key = Buffer.from(hkdfSync('sha256', secret, salt, label.info, 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(label.bound));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [SEAL_VERSION, salt, iv, cipher.getAuthTag(), sealed]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The sealed value's plaintext; undefined when the format is unknown or the secret (or label) is not the one it was sealed with. */
export function unseal(secret: string, label: SealLabel, sealed: string): string | undefined {
  const [version, salt, iv, tag, data] = sealed.split('.');
  if (version !== SEAL_VERSION || !salt || !iv || !tag || !data) return undefined;
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.from(salt, 'base64url'), label.info, 32));
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(label.bound));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
