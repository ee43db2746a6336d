import { describe, expect, it } from 'vitest';
import type { AccessClaims } from './claims.js';
import { VerifiedTokenCache } from './verified-tokens.js';

const claims: AccessClaims = {
  userId: 1,
  partnerId: 2,
  partnerCode: 'P',
  userTypeId: 4,
  customerInterfaceId: 8,
  brandCode: 'brandau',
  clientId: 'API',
  username: 'u',
  sessionId: 'family-1',
};
const entry = (expiresAt: number) => ({ claims, kid: 'k1', expiresAt });

describe('verified-token cache', () => {
  it('answers until the second the token expires, then forgets it', () => {
    const cache = new VerifiedTokenCache();
    cache.set('t', entry(1_000));
    expect(cache.get('t', 999_999)?.claims).toBe(claims);
    expect(cache.get('t', 1_000_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('only the exact token string hits', () => {
    const cache = new VerifiedTokenCache();
    cache.set('abc', entry(10));
    expect(cache.get('abd', 0)).toBeUndefined();
    expect(cache.get('abc ', 0)).toBeUndefined();
  });

  it('stays within its capacity, dropping the oldest token first', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('a', entry(10));
    cache.set('b', entry(10));
    cache.set('c', entry(10));
    expect(cache.size).toBe(2);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('c', 0)).toBeDefined();
  });

  it('remembers nothing with capacity 0', () => {
    const cache = new VerifiedTokenCache(0);
    cache.set('a', entry(10));
    expect(cache.get('a', 0)).toBeUndefined();
  });
});
