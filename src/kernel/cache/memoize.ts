import { setBounded } from './bounded-map.js';

type Key = string | number;

/**
 * `compute` with its answers remembered, the oldest forgotten first past `capacity`. For pure
 * functions whose answers cost more than a lookup (Intl formatters, luxon's zone arithmetic:
 * docs/performance.md) and whose arguments repeat (zones, currencies, dates). The key is the
 * arguments joined, or `keyOf` when the answer depends on less than all of them.
 */
export function memoize<A extends readonly unknown[], T>(
  compute: (...args: A) => T,
  capacity: number,
  keyOf: (...args: A) => Key = joined,
): (...args: A) => T {
  const answers = new Map<Key, T>();
  return (...args: A): T => {
    const key = keyOf(...args);
    const known = answers.get(key);
    if (known !== undefined || answers.has(key)) return known as T;
    const answer = compute(...args);
    setBounded(answers, key, answer, capacity);
    return answer;
  };
}

function joined(...args: readonly unknown[]): Key {
  if (args.length === 1 && (typeof args[0] === 'string' || typeof args[0] === 'number')) return args[0];
  return args.join('\u0000');
}
