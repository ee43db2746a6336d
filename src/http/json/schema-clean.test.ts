import fc from 'fast-check';
import { Type, type TSchema } from 'typebox';
import Value from 'typebox/value';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { QuoteInput, QuoteRequest } from '../../quotes/schemas.js';
import { compileCleaner } from './schema-clean.js';

/** What normalisation did before the compiled cleaner: TypeBox's own Clean on a clone. */
const reference = (schema: TSchema, value: unknown): unknown => Value.Clean(schema, structuredClone(value));

const extraKey = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('foo', 'toString', 'constructor', 'valueOf', '__proto__', 'a\nb', 'guid2'),
);

/**
 * Values shaped by a schema (every optional field sometimes absent), with unknown keys added to
 * objects and, now and then, a value of the wrong type anywhere: what a body can hold after and
 * beyond request validation.
 */
function shaped(schema: TSchema, depth = 0): fc.Arbitrary<unknown> {
  const wrong = fc.jsonValue({ maxDepth: 2 });
  let right: fc.Arbitrary<unknown>;
  if (Type.IsObject(schema)) {
    const keys = Object.keys(schema.properties);
    const record = fc.record(
      Object.fromEntries(keys.map((k) => [k, shaped(schema.properties[k] as TSchema, depth + 1)])),
      { requiredKeys: [] },
    );
    right = fc
      .tuple(record, fc.dictionary(extraKey, wrong, { maxKeys: 2 }), fc.boolean())
      .map(([known, extra, extraFirst]) => {
        // JSON.parse makes `__proto__` an own key; build objects the same way.
        const out = JSON.parse('{}') as Record<string, unknown>;
        const entries = extraFirst
          ? [...Object.entries(extra), ...Object.entries(known)]
          : [...Object.entries(known), ...Object.entries(extra)];
        for (const [k, v] of entries)
          Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
        return out;
      });
  } else if (Type.IsRecord(schema)) {
    right = fc
      .dictionary(extraKey, shaped(Type.RecordValue(schema), depth + 1), { maxKeys: 3 })
      .map((d) => JSON.parse(JSON.stringify(d)) as unknown);
  } else if (Type.IsArray(schema)) {
    right = depth > 6 ? fc.constant([]) : fc.array(shaped(schema.items, depth + 1), { maxLength: 3 });
  } else if ('enum' in schema) {
    right = fc.constantFrom(...(schema.enum as unknown[]));
  } else {
    const type = (schema as { type?: string }).type;
    right =
      type === 'string'
        ? fc.string({ maxLength: 12 })
        : type === 'integer'
          ? fc.integer()
          : type === 'number'
            ? fc.double({ noNaN: true })
            : type === 'boolean'
              ? fc.boolean()
              : wrong;
  }
  return fc.oneof({ weight: 12, arbitrary: right }, { weight: 1, arbitrary: wrong });
}

describe('compileCleaner', () => {
  const cleanInput = compileCleaner(QuoteInput);
  const cleanRequest = compileCleaner(QuoteRequest);

  it('equals Value.Clean on a clone for generated quote inputs, key order included', () => {
    fc.assert(
      fc.property(shaped(QuoteInput), (value) => {
        const before = structuredClone(value);
        const cleaned = cleanInput(value);
        const expected = reference(QuoteInput, value);
        // node's deep equality: prototypes and own keys (`__proto__`, `constructor` included).
        expect(isDeepStrictEqual(cleaned, expected)).toBe(true);
        expect(JSON.stringify(cleaned)).toBe(JSON.stringify(expected));
        expect(isDeepStrictEqual(value, before)).toBe(true); // the argument is never changed
      }),
      { numRuns: 1000 },
    );
  });

  it('equals Value.Clean for whole quote requests and for any JSON value', () => {
    fc.assert(
      fc.property(fc.oneof(shaped(QuoteRequest), fc.jsonValue()), (value) => {
        const [cleaned, expected] = [cleanRequest(value), reference(QuoteRequest, value)];
        expect(isDeepStrictEqual(cleaned, expected)).toBe(true);
        expect(JSON.stringify(cleaned)).toBe(JSON.stringify(expected));
      }),
      { numRuns: 500 },
    );
  });

  it('copies: nothing in the result is shared with the argument', () => {
    const value = {
      homeAddress: { countryCode: 'AUS', extra: 1 },
      policyHolders: [{ age: 4, validation: { errors: [{ tokens: { a: 'b' } }] } }],
      tripValue: { not: 'a number' },
    };
    const cleaned = cleanInput(value) as typeof value;
    expect(cleaned).toStrictEqual({
      homeAddress: { countryCode: 'AUS' },
      policyHolders: [{ age: 4, validation: { errors: [{ tokens: { a: 'b' } }] } }],
      tripValue: { not: 'a number' },
    });
    expect(cleaned.homeAddress).not.toBe(value.homeAddress);
    expect(cleaned.policyHolders[0]?.validation.errors[0]?.tokens).not.toBe(
      value.policyHolders[0]?.validation.errors[0]?.tokens,
    );
    expect(cleaned.tripValue).not.toBe(value.tripValue);
  });

  it('refuses schema kinds it would clean differently from TypeBox', () => {
    expect(() => compileCleaner(Type.Union([Type.String(), Type.Object({ a: Type.String() })]))).toThrow(
      /not supported/,
    );
    expect(() => compileCleaner(Type.Object({ a: Type.Tuple([Type.String()]) }))).toThrow(/not supported/);
    expect(() => compileCleaner(Type.Object({}, { additionalProperties: true }))).toThrow(/additionalProperties/);
    expect(() => compileCleaner(Type.Object({}, { additionalProperties: false }))).not.toThrow();
  });
});
