/**
 * Sets `key` in `map` as its newest entry; when `map` already holds `max` others, the oldest (first set) makes room.
 * Keeps a memory of things seen bounded whatever callers send.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
