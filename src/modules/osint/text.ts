/** Longest title and summary an item keeps (characters). */
export const MAX_TITLE = 256;
export const MAX_SUMMARY = 5_000;

const ACTIVE_BLOCKS = /<(script|style|iframe|object|embed|template|noscript)\b[^>]*>[\s\S]*?(<\/\1\s*>|$)/gi;
const TAG = /<\/?[A-Za-z!?][^<>]*>?/g;
// NUL, other C0/C1 controls (but tab and line breaks), unpaired surrogates: Postgres and the API refuse them.
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export interface PlainText {
  text: string;
  /** Markup (tags, scripts) was removed. */
  stripped: boolean;
}

/**
 * A feed's title or text as plain text: script-like blocks dropped with their content, every other tag removed,
 * control characters gone, whitespace collapsed, cut to `max`. Entities are not decoded again after the tags are
 * gone, so `&lt;script&gt;` stays text and never becomes markup.
 */
export function plainText(value: unknown, max: number): PlainText {
  const raw = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const withoutBlocks = raw.replace(ACTIVE_BLOCKS, ' ');
  const withoutTags = withoutBlocks.replace(TAG, ' ');
  const text = withoutTags.replace(CONTROL, '').replace(/\s+/g, ' ').trim().slice(0, max).trim();
  return { text, stripped: withoutTags !== raw };
}
