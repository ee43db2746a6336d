import { Type, type TSchema } from 'typebox';

/** A copy of a value without the properties its schema does not declare. */
export type Cleaner = (value: unknown) => unknown;

const copy: Cleaner = (value) => (value !== null && typeof value === 'object' ? structuredClone(value) : value);

/** Sets an own property, `__proto__` included (plain assignment would change the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * `Value.Clean(schema, structuredClone(value))` with the schema walked once, here, instead of on
 * every call: TypeBox's Value functions re-derive the schema each time (`UnionPrioritySort`,
 * `Assign`, `Keys`), which cost more than the rest of a quote evaluation together.
 *
 * Same result as TypeBox for objects, records and arrays: an object keeps the keys its schema
 * declares as own properties (in the value's key order) and drops the others; a record keeps the
 * keys its pattern matches; arrays are cleaned element by element; a value of another type than
 * its schema's is returned as a copy. Schema kinds TypeBox would treat differently (unions,
 * intersections, references, tuples, `additionalProperties` other than false) are refused when the
 * cleaner is built, so a schema change cannot silently drift from `Value.Clean`.
 */
export function compileCleaner(schema: TSchema): Cleaner {
  if (
    Type.IsUnion(schema) ||
    Type.IsIntersect(schema) ||
    Type.IsRef(schema) ||
    Type.IsTuple(schema) ||
    Type.IsCyclic(schema)
  ) {
    throw new Error(
      `compileCleaner: schema kind ${String((schema as unknown as Record<string, unknown>)['~kind'])} is not supported`,
    );
  }
  if (Type.IsObject(schema)) return objectCleaner(schema);
  if (Type.IsRecord(schema)) return recordCleaner(schema);
  if (Type.IsArray(schema)) return arrayCleaner(schema);
  return copy;
}

function refuseAdditional(schema: TSchema): void {
  const additional = (schema as { additionalProperties?: unknown }).additionalProperties;
  if (additional !== undefined && additional !== false)
    throw new Error('compileCleaner: additionalProperties other than false is not supported');
}

function objectCleaner(schema: Type.TObject): Cleaner {
  refuseAdditional(schema);
  const properties = new Map<string, Cleaner>();
  // TypeBox recurses into own keys whose value is a schema object (`HasPropertyKey` + `IsSchema`).
  for (const [key, property] of Object.entries(schema.properties)) properties.set(key, compileCleaner(property));
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return copy(value);
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.getOwnPropertyNames(source)) {
      const clean = properties.get(key);
      if (clean) put(out, key, clean(source[key]));
    }
    return out;
  };
}

function recordCleaner(schema: Type.TRecord): Cleaner {
  refuseAdditional(schema);
  const pattern = new RegExp(Type.RecordPattern(schema));
  const clean = compileCleaner(Type.RecordValue(schema));
  return (value) => {
    // TypeBox cleans any object here, arrays included; a JSON array can only arrive invalid.
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return copy(value);
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.getOwnPropertyNames(source)) {
      if (pattern.test(key)) put(out, key, clean(source[key]));
    }
    return out;
  };
}

function arrayCleaner(schema: Type.TArray): Cleaner {
  const clean = compileCleaner(schema.items);
  return (value) => (Array.isArray(value) ? value.map((item) => clean(item)) : copy(value));
}
