/**
 * The property path a Notification names (`quote.input.policyHolders[0].firstName`), built for a
 * value found while walking a JSON body. Walkers keep a chain of visits and spell the path out only
 * for the value they report, so a clean body costs no string building.
 */

/** A value still to visit, with the way back to the root. */
export interface PropertyVisit {
  readonly value: unknown;
  readonly parent: PropertyVisit | undefined;
  readonly key: string | number;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** The path from the walk's root to `visit`: dots for identifiers, brackets for indexes and other keys. */
export function propertyPathOf(visit: PropertyVisit): string {
  const keys: (string | number)[] = [];
  for (let at = visit; at.parent; at = at.parent) keys.push(at.key);
  let path = '';
  for (let i = keys.length - 1; i >= 0; i -= 1) path = childPath(path, keys[i] as string | number);
  return path;
}
