/**
 * `JSON.parse(JSON.stringify(value))` without the text in between: the value as stored JSON
 * gives it back (undefined members dropped, undefined array elements null, -0 is 0, non-finite
 * numbers null). Plain objects, arrays and primitives are copied directly; anything else JSON
 * treats specially (a `toJSON` method such as a Date's, boxed primitives, Maps, bigints, cycles)
 * sends the whole value through the text round trip, so the answer is always the same.
 */
export function jsonCopy<T>(value: T): T {
  try {
    return copyTop(value) as T;
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
    return JSON.parse(JSON.stringify(value)) as T;
  }
}

const NOT_PLAIN = new Error('not plain JSON data');
const OMIT = Symbol('omit');
/** Deeper than this is left to JSON (which also reports cycles as JSON does). */
const MAX_DEPTH = 500;

function copyTop(value: unknown): unknown {
  const copied = copy(value, 0);
  // JSON.stringify(undefined) is undefined, and JSON.parse(undefined) throws: leave it to JSON.
  if (copied === OMIT) throw NOT_PLAIN;
  return copied;
}

function copy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return OMIT;
    case 'object':
      break;
    default:
      throw NOT_PLAIN; // bigint
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || 'toJSON' in value) throw NOT_PLAIN;
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i += 1) {
      const item = copy(value[i], depth + 1);
      out.push(item === OMIT ? null : item);
    }
    return out;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || 'toJSON' in value) throw NOT_PLAIN;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const item = copy(source[key], depth + 1);
    if (item === OMIT) continue;
    // JSON.parse makes `__proto__` an own key; plain assignment would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}
