import { describe, expect, it } from 'vitest';
import { randomToken } from './random-token.js';

describe('randomToken', () => {
  it('answers base64url of the asked length, each one different, across many blocks', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const token = randomToken(16);
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      seen.add(token);
    }
    expect(seen.size).toBe(20_000);
  });

  it('never hands out a zeroed (already used) range: no token of all zero bits', () => {
    for (let i = 0; i < 5_000; i++) expect(Buffer.from(randomToken(12), 'base64url').every((b) => b === 0)).toBe(false);
  });

  it('serves lengths that do not divide the block, and long ones directly', () => {
    expect(Buffer.from(randomToken(32), 'base64url')).toHaveLength(32);
    expect(Buffer.from(randomToken(7), 'base64url')).toHaveLength(7);
    expect(Buffer.from(randomToken(4096), 'base64url')).toHaveLength(4096);
  });
});
