import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson, fingerprintOf, isStoredStatus, parseIdempotencyKey } from './service.js';
import { IdempotencyKeyMalformed } from './errors.js';

describe('parseIdempotencyKey', () => {
  it('accepts 1–255 printable ASCII characters and no header at all', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('a')).toBe('a');
    expect(parseIdempotencyKey('purchase 2026-11-22 #1 ~!')).toBe('purchase 2026-11-22 #1 ~!');
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
  });

  it.each([[''], ['k'.repeat(256)], ['tab\there'], ['clé'], ['new\nline'], [['a', 'b']]])('refuses %j', (header) => {
    expect(() => parseIdempotencyKey(header)).toThrow(IdempotencyKeyMalformed);
  });

  it('accepts exactly the printable ASCII strings of length 1–255', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const ok = text.length >= 1 && text.length <= 255 && /^[ -~]*$/.test(text);
        if (ok) expect(parseIdempotencyKey(text)).toBe(text);
        else expect(() => parseIdempotencyKey(text)).toThrow(IdempotencyKeyMalformed);
      }),
    );
  });
});

/** The same object with its keys inserted in another order, at every level. */
function shuffled(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffled(v, seed));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (seed % 2 === 1) entries.reverse();
  return Object.fromEntries(entries.map(([k, v]) => [k, shuffled(v, seed + 1)]));
}

describe('canonicalJson and fingerprintOf', () => {
  it('ignore object key order but not array order or values', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 3 }), (value, seed) => {
        expect(canonicalJson(shuffled(value, seed))).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('tell apart method, path, body, and no body from null', () => {
    const base = { method: 'POST', path: '/quotes/v2/brandau/purchase', body: { quote: { id: 1 } } };
    const fp = fingerprintOf(base);
    expect(fingerprintOf({ ...base, method: 'post' })).toBe(fp);
    expect(fingerprintOf({ ...base, method: 'PUT' })).not.toBe(fp);
    expect(fingerprintOf({ ...base, path: '/quotes/v2/brandnz/purchase' })).not.toBe(fp);
    expect(fingerprintOf({ ...base, body: { quote: { id: 2 } } })).not.toBe(fp);
    expect(fingerprintOf({ ...base, body: undefined })).not.toBe(fingerprintOf({ ...base, body: null }));
  });
});

describe('isStoredStatus', () => {
  it('keeps outcomes of the endpoint and drops shape, auth, clash and server failures', () => {
    for (const status of [200, 201, 204, 302, 402, 404, 410, 422]) expect(isStoredStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 409, 413, 415, 429, 500, 502, 503]) expect(isStoredStatus(status)).toBe(false);
  });
});
