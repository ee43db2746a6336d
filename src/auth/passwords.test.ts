import { describe, expect, it } from 'vitest';
import { PasswordHasher } from './passwords.js';

const hasher = new PasswordHasher({ memoryKib: 256, timeCost: 1 });

describe('PasswordHasher', () => {
  it('hashes with argon2id and the configured cost, salted per hash', async () => {
    const a = await hasher.hash('correct horse battery');
    const b = await hasher.hash('correct horse battery');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    expect(a).not.toBe(b);
    expect(await hasher.verify(a, 'correct horse battery')).toBe(true);
    expect(await hasher.verify(a, 'Correct horse battery')).toBe(false);
  });

  it('never authenticates against a malformed stored hash or the dummy hash', async () => {
    expect(await hasher.verify('not-a-hash', 'anything')).toBe(false);
    expect(await hasher.verifyDummy('anything')).toBe(false);
    expect(await hasher.verifyDummy('')).toBe(false);
  });
});
