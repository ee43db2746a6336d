import { describe, expect, it } from 'vitest';
import { seal, unseal } from './seal.js';

const SECRET = 'a-key-encryption-secret-of-at-least-32-characters';

describe('sealing secrets at rest', () => {
  it('opens only with the same secret, purpose and row', () => {
    const label = { info: 'partner-api webhook secret', bound: 'whe_1' };
    const sealed = seal(SECRET, label, 'whsec_value');
    expect(sealed).not.toContain('whsec_value');
    expect(seal(SECRET, label, 'whsec_value')).not.toBe(sealed); // fresh salt and IV
    expect(unseal(SECRET, label, sealed)).toBe('whsec_value');
    expect(unseal(`${SECRET}x`, label, sealed)).toBeUndefined();
    expect(unseal(SECRET, { ...label, info: 'partner-api signing key' }, sealed)).toBeUndefined();
    expect(unseal(SECRET, { ...label, bound: 'whe_2' }, sealed)).toBeUndefined();
    expect(unseal(SECRET, label, 'v0.a.b.c.d')).toBeUndefined();
  });
});
