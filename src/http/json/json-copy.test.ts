import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { jsonCopy } from './json-copy.js';

/** What jsonCopy replaces; its errors too. */
function viaText(value: unknown): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(JSON.stringify(value)) as unknown };
  } catch (error) {
    return { error: (error as Error).constructor.name };
  }
}
function viaCopy(value: unknown): { value?: unknown; error?: string } {
  try {
    return { value: jsonCopy(value) };
  } catch (error) {
    return { error: (error as Error).constructor.name };
  }
}

describe('jsonCopy', () => {
  it('equals the JSON text round trip on any value, errors included', () => {
    const anything = fc.anything({
      maxDepth: 4,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      stringUnit: 'binary',
      key: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'toJSON', 'constructor')),
    });
    const odd = fc.constantFrom(
      undefined,
      -0,
      Number.NaN,
      Infinity,
      [undefined, () => 1, Symbol('s')],
      { a: undefined, b: () => 1, c: -0 },
      { toJSON: () => 'x' },
      { toJSON: 'not a function' },
      new Date(0),
    );
    fc.assert(
      fc.property(fc.oneof(anything, odd, fc.array(odd), fc.dictionary(fc.string(), odd)), (value) => {
        const [ours, theirs] = [viaCopy(value), viaText(value)];
        expect(isDeepStrictEqual(ours, theirs)).toBe(true);
        if ('value' in theirs) expect(JSON.stringify(ours.value)).toBe(JSON.stringify(theirs.value));
      }),
      { numRuns: 5000 },
    );
  });

  it('throws as JSON does on a cycle, and copies deep values', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => jsonCopy(cyclic)).toThrow(TypeError);
    let deep: unknown = 1;
    for (let i = 0; i < 2000; i += 1) deep = { next: deep, list: [i] };
    expect(jsonCopy(deep)).toEqual(JSON.parse(JSON.stringify(deep)));
  });
});
