import { describe, expect, it } from 'vitest';
import { newOrderedToken, newRecordId } from './ordered-ids.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ids ordered by time', () => {
  it('record ids are version 7 UUIDs, distinct, and later ones sort after earlier ones', async () => {
    const first = Array.from({ length: 1000 }, newRecordId);
    await pause(5);
    const later = newRecordId();
    expect(new Set(first).size).toBe(1000);
    for (const id of first) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(id < later).toBe(true);
    }
  });

  it('tokens are 22 base64url characters that share their time prefix within a moment', () => {
    const tokens = Array.from({ length: 1000 }, newOrderedToken);
    expect(new Set(tokens).size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(tokens.map((token) => token.slice(0, 4))).size).toBeLessThanOrEqual(2);
  });
});
