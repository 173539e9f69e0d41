/**
 * ATT&CK intrusion sets carry no country, but their descriptions name the attribution ("a North Korean
 * state-sponsored group", "attributed to Russia's GRU", "a China-based group", "operating out of Iran").
 * Only such attribution phrases count: a country named as a victim ("targeted entities in Russia") or a
 * language ("Russian-speaking") does not. The earliest attribution in the text wins.
 */
interface Nation {
  code: string;
  /** Demonyms, e.g. "Chinese". */
  adjectives: string[];
  /** Country names and abbreviations, e.g. "China", "PRC". */
  names: string[];
}

/**
 * ISO 3166-1 alpha-2 codes of the states ATT&CK descriptions attribute groups to. States that appear there only
 * as victims (an Israeli company, an American contractor) are left out so they cannot be mistaken for attribution.
 */
export const NATIONS: readonly Nation[] = [
  { code: 'CN', adjectives: ['Chinese'], names: ["People's Republic of China", 'China', 'PRC'] },
  { code: 'RU', adjectives: ['Russian'], names: ['Russian Federation', 'Russia'] },
  { code: 'KP', adjectives: ['North Korean'], names: ['North Korea', 'DPRK'] },
  { code: 'KR', adjectives: ['South Korean'], names: ['South Korea'] },
  { code: 'IR', adjectives: ['Iranian'], names: ['Iran'] },
  { code: 'PK', adjectives: ['Pakistani'], names: ['Pakistan'] },
  { code: 'IN', adjectives: ['Indian'], names: ['India'] },
  { code: 'VN', adjectives: ['Vietnamese'], names: ['Vietnam'] },
  { code: 'LB', adjectives: ['Lebanese'], names: ['Lebanon'] },
  { code: 'TR', adjectives: ['Turkish'], names: ['Türkiye', 'Turkey'] },
  { code: 'BY', adjectives: ['Belarusian', 'Belorussian'], names: ['Belarus'] },
  { code: 'NG', adjectives: ['Nigerian'], names: ['Nigeria'] },
  { code: 'BR', adjectives: ['Brazilian'], names: ['Brazil'] },
];

const escapeWord = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "['’]");
const alternation = (words: string[]) =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map(escapeWord)
    .join('|');

const byWord = new Map<string, string>();
for (const nation of NATIONS)
  for (const word of [...nation.adjectives, ...nation.names]) byWord.set(word.toLowerCase().replace(/\u2019/g, "'"), nation.code);

const ADJ = alternation(NATIONS.flatMap((nation) => nation.adjectives));
const NAME = alternation(NATIONS.flatMap((nation) => nation.names));
const ANY = `${ADJ}|${NAME}`;
const NOT_LANGUAGE = '(?![-\\w]*speaking)';
const HEDGE = '(?:(?:suspected|likely|possibly|probably|alleged|reportedly)\\s+)?';
const STATE_ORGAN =
  '(?:government|Ministry|People|General|Federal|Foreign|Main|Reconnaissance|Islamic|State|state|military|intelligence|Intelligence|Army|armed)';

/** Each pattern captures the country word in group 1. */
const ATTRIBUTION_PATTERNS: readonly RegExp[] = [
  // "is a Chinese threat group", "an Iranian-sponsored group", "a suspected North Korean group"
  new RegExp(`\\ban?\\s+${HEDGE}(${ANY})\\b${NOT_LANGUAGE}`),
  // "China-based", "North Korea–aligned", "Türkiye-linked", "Russian-nexus", "Iranian-sponsored"
  new RegExp(`(?<![\\w-])(${ANY})[-–](?:based|nexus|linked|aligned|sponsored|backed|affiliated|related)\\b`),
  // "Chinese state-sponsored", "Chinese origins", "Iranian nexus", "Iranian actors"
  new RegExp(`\\b(${ADJ})\\s+(?:state-sponsored|state-backed|origins?|nexus|actors|interests)\\b`),
  // "attributed to Russia's General Staff", "Iran's Ministry of Intelligence"
  new RegExp(`\\b(${NAME})['’]s\\s+${STATE_ORGAN}`),
  // "attributed to the Lebanese General Directorate", "associated with the Chinese government"
  new RegExp(
    `\\b(?:attributed to|associated with|affiliated with|linked to|nexus to|on behalf of|in association with|conducted by)\\s+(?:the\\s+)?(${ANY})\\b${NOT_LANGUAGE}`,
  ),
  // "operating out of China", "based in Brazil", "originating in Russia", "operate from the Guandong Province of China"
  new RegExp(
    `\\b(?:out of|based in|originating in|originating from|operate from|operating from|operates from)\\s+(?:primarily\\s+)?(?:the\\s+)?(?:[A-Z][\\w-]*\\s+Province\\s+of\\s+)?(${NAME})\\b`,
  ),
];

/** Markdown links and citations removed, so "[APT1](https://…)" reads "APT1". */
function plain(description: string): string {
  return description.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\(Citation:[^)]*\)/g, '');
}

/** ISO alpha-2 code of the country a threat-actor description attributes the group to, or null. */
export function countryFromDescription(description: string | null | undefined): string | null {
  if (!description) return null;
  const text = plain(description);
  let best: { index: number; code: string } | null = null;
  for (const pattern of ATTRIBUTION_PATTERNS) {
    const match = pattern.exec(text);
    const code = match && byWord.get(match[1].toLowerCase().replace(/\u2019/g, "'"));
    if (match && code && (!best || match.index < best.index)) best = { index: match.index, code };
  }
  return best?.code ?? null;
}
