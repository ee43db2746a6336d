/**
 * The property path a Notification names (`quote.input.policyHolders[0].firstName`), built for a
 * value found while walking a JSON body. Walkers keep a chain of visits and spell the path out only
 * for the value they report, so a clean body costs no string building.
 */

/** A value still to visit, with the way back to the root. */
interface PropertyVisit {
  readonly value: unknown;
  readonly parent: PropertyVisit | undefined;
  readonly key: string | number;
  /** How many objects and arrays enclose the value. */
  readonly depth: number;
}

/** A value nested deeper than a walk's `maxDepth` allows; `path` names the first such container. */
export class NestingLimitExceeded extends Error {
  constructor(
    readonly path: string,
    readonly maxDepth: number,
  ) {
    super(`nested deeper than ${maxDepth} levels`);
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** The path from the walk's root to `visit`: dots for identifiers, brackets for indexes and other keys. */
function propertyPathOf(visit: PropertyVisit): string {
  const keys: (string | number)[] = [];
  for (let at = visit; at.parent; at = at.parent) keys.push(at.key);
  let path = '';
  for (let i = keys.length - 1; i >= 0; i -= 1) path = childPath(path, keys[i] as string | number);
  return path;
}

/**
 * The paths of every string, property name and (with `wholeNumbers`) whole number in a parsed
 * JSON value that `holds` accepts, in document order; with `firstOnly`, at most the first. `''` is
 * the root itself. Iterative, so deep nesting cannot overflow the stack; shared or cyclic
 * references are visited once. With `maxDepth`, a container nested deeper throws
 * NestingLimitExceeded (a body that would overflow recursive readers later: serialisers, hashes).
 */
export function propertyPathsHolding(
  value: unknown,
  holds: (text: string) => boolean,
  options: { wholeNumbers?: boolean; firstOnly?: boolean; maxDepth?: number } = {},
): string[] {
  const found: string[] = [];
  const seen = new WeakSet<object>();
  const maxDepth = options.maxDepth ?? Infinity;
  const stack: PropertyVisit[] = [{ value, parent: undefined, key: '', depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const current = item.value;
    if (typeof current === 'string') {
      if (holds(current)) found.push(propertyPathOf(item));
    } else if (options.wholeNumbers && (typeof current === 'number' || typeof current === 'bigint')) {
      if (Number.isInteger(Number(current)) && holds(String(current))) found.push(propertyPathOf(item));
    } else if (current !== null && typeof current === 'object' && !seen.has(current)) {
      if (item.depth >= maxDepth) throw new NestingLimitExceeded(propertyPathOf(item), maxDepth);
      seen.add(current);
      const entries: [string | number, unknown][] = Array.isArray(current)
        ? current.map((v, i): [number, unknown] => [i, v])
        : Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i] as [string | number, unknown];
        const visit: PropertyVisit = { value: child, parent: item, key, depth: item.depth + 1 };
        if (typeof key === 'string' && holds(key)) {
          found.push(propertyPathOf(visit));
          if (options.firstOnly) return found;
        }
        stack.push(visit);
      }
    }
    if (options.firstOnly && found.length > 0) return found;
  }
  return found;
}
