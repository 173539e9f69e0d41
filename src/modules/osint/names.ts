// A name or id is a whole word: not inside another word or number (`XT1059`, `T10590`, `T1059.0012`).
export const EDGE_BEFORE = '(?<![\\p{L}\\p{N}_])';
export const EDGE_AFTER = '(?![\\p{L}\\p{N}_])';

/** Names shorter than this are not matched (too many accidental hits), unless the rule allows short names with a digit. */
export const MIN_NAME_LENGTH = 4;

/** A catalog entry known by names: its row id and its ATT&CK id (G0007, S0002). */
export interface Named {
  id: string;
  code: string | null;
}

/** Names and aliases of one kind of catalog entry, ready to find in text. */
export interface NameIndex {
  /** Names matched only as written. */
  exact: Map<string, Named>;
  /** Lower-cased names matched in any case (those with a digit). */
  folded: Map<string, Named>;
  pattern: RegExp | null;
}

const hasDigit = (name: string) => /\p{N}/u.test(name);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Indexes names and aliases: a name with a digit (APT28, FIN7) matches in any case, any other only as written
 * (`Turla`, not `turla`), so ordinary words in lower case never match. Names under MIN_NAME_LENGTH are left out,
 * except, with `shortWithDigit`, those holding a digit. A name two entries share is ambiguous and left out.
 */
export function nameIndex(entries: readonly (Named & { names: readonly string[] })[], shortWithDigit: boolean): NameIndex {
  const owners = new Map<string, Named[]>();
  for (const entry of entries) {
    for (const name of new Set(entry.names.map((value) => value.trim()))) {
      if (name.length < MIN_NAME_LENGTH && !(shortWithDigit && hasDigit(name))) continue;
      const key = hasDigit(name) ? name.toLowerCase() : name;
      const list = owners.get(key) ?? [];
      if (!list.some((owner) => owner.id === entry.id)) list.push({ id: entry.id, code: entry.code });
      owners.set(key, list);
    }
  }
  const index: NameIndex = { exact: new Map(), folded: new Map(), pattern: null };
  for (const [key, [owner, ...others]] of owners) {
    if (others.length) continue;
    (hasDigit(key) ? index.folded : index.exact).set(key, owner);
  }
  const alternatives = [...index.exact.keys(), ...index.folded.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  // One pattern for all names, longest first; case folding is decided per match (folded names are lower-cased).
  if (alternatives.length) index.pattern = new RegExp(`${EDGE_BEFORE}(?:${alternatives.join('|')})${EDGE_AFTER}`, 'giu');
  return index;
}

/** The entries whose names `text` holds, each with the name as written. */
export function namesIn(index: NameIndex, text: string): { entry: Named; mentioned: string }[] {
  const found: { entry: Named; mentioned: string }[] = [];
  for (const match of index.pattern ? text.matchAll(index.pattern) : []) {
    const entry = index.exact.get(match[0]) ?? index.folded.get(match[0].toLowerCase());
    if (entry) found.push({ entry, mentioned: match[0] });
  }
  return found;
}
