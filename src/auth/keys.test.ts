import { describe, expect, it } from 'vitest';
import { openPrivateKey, sealPrivateKey } from './keys.js';

const secret = 'a-test-secret-that-is-long-enough-for-hkdf';
const pem = '-----BEGIN PRIVATE KEY-----\nMIGH...\n-----END PRIVATE KEY-----\n';

describe('sealing private keys (AES-256-GCM)', () => {
  it('round-trips, with a fresh salt and IV each time', () => {
    const a = sealPrivateKey(secret, 'kid-1', pem);
    const b = sealPrivateKey(secret, 'kid-1', pem);
    expect(a).not.toBe(b);
    expect(a).not.toContain('PRIVATE KEY');
    expect(openPrivateKey(secret, 'kid-1', a)).toBe(pem);
  });

  it('refuses another secret, another kid (the associated data) or a tampered ciphertext', () => {
    const sealed = sealPrivateKey(secret, 'kid-1', pem);
    expect(() => openPrivateKey(`${secret}x`, 'kid-1', sealed)).toThrow(/KEY_ENCRYPTION_SECRET/);
    expect(() => openPrivateKey(secret, 'kid-2', sealed)).toThrow();
    const parts = sealed.split('.');
    parts[4] = `A${parts[4]!.slice(1)}`.replace(/^A/, parts[4]!.startsWith('A') ? 'B' : 'A');
    expect(() => openPrivateKey(secret, 'kid-1', parts.join('.'))).toThrow();
    expect(() => openPrivateKey(secret, 'kid-1', 'v0.x')).toThrow(/format/);
  });
});
