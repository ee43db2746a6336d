/**
 * Sets `key` in `map`, first dropping the oldest entry (Maps keep insertion order) when a new
 * key would take it past `capacity`. The process-wide caches use it so none grows without bound.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  if (capacity <= 0) return;
  if (map.size >= capacity && !map.has(key)) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
