/** Longer relay states land on `/`. The SAML bindings promise only 80 bytes to survive the round trip: keep deep links short. */
export const RELAY_STATE_MAX = 512;
const BASE = 'http://relay.invalid';

const hasControlCharacter = (text: string) => Array.from(text).some((character) => character < ' ' || character === '\u007f');

/**
 * Where a sign-in may land: a path on this service, or `/`. Refused: anything not starting with one `/`
 * (`//evil`, `http://evil`), any backslash (`/\evil`: browsers read it as `//evil`) and any control character
 * (browsers drop tabs and newlines, so `/\t/evil` would become `//evil`).
 */
export function safeRelayPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > RELAY_STATE_MAX) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || hasControlCharacter(value)) return '/';
  if (!URL.canParse(value, BASE)) return '/';
  const url = new URL(value, BASE);
  return url.origin === BASE ? `${url.pathname}${url.search}${url.hash}` : '/';
}
