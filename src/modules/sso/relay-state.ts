/** Longer relay states land on `/`. The SAML bindings promise only 80 bytes to survive the round trip: keep deep links short. */
export const RELAY_STATE_MAX = 512;
/** Normalising rounds: each decodes one layer of percent-encoding; a value still changing after them lands on `/`. */
const ROUNDS = 4;
const BASE = 'http://relay.invalid';

const hasControlCharacter = (text: string) => Array.from(text).some((character) => character < ' ' || character === '\u007f');

/**
 * One normalising round: the path part is percent-decoded, its runs of slashes collapsed, and the whole resolved
 * (dot segments) on this origin. Null when the value is no path of this origin: it does not start with exactly one
 * `/`, or holds a backslash (browsers read `/\evil` as `//evil`) or a control character (browsers drop tabs and
 * newlines), plain or encoded.
 */
function normalised(value: string): string | null {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || hasControlCharacter(value)) return null;
  const end = value.search(/[?#]/);
  const [path, rest] = end < 0 ? [value, ''] : [value.slice(0, end), value.slice(end)];
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (decoded.includes('\\') || hasControlCharacter(decoded)) return null;
  const candidate = `${decoded.replace(/\/{2,}/g, '/')}${rest}`;
  if (!URL.canParse(candidate, BASE)) return null;
  const url = new URL(candidate, BASE);
  return url.origin === BASE ? `${url.pathname}${url.search}${url.hash}` : null;
}

/**
 * Where a sign-in may land: a path on this service, normalised until it no longer changes (so that no decoding or
 * dot-segment removal downstream can turn it into `//evil`), or `/`.
 */
export function safeRelayPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > RELAY_STATE_MAX) return '/';
  let current = value;
  for (let round = 0; round < ROUNDS; round++) {
    const next = normalised(current);
    if (next === null) return '/';
    if (next === current) return current;
    current = next;
  }
  return '/';
}
