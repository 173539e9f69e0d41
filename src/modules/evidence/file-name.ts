const MAX_FILE_NAME = 200;
const FALLBACK_NAME = 'evidence';
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * The name a file is listed and downloaded under: the last path segment only, without control, format
 * (e.g. bidi override) or separator characters, at most 200 characters (keeping the extension).
 */
export function safeFileName(raw: string | undefined): string {
  const base = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  if (!cleaned) return FALLBACK_NAME;
  const chars = [...cleaned];
  if (chars.length <= MAX_FILE_NAME) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 ? [...cleaned.slice(dot)] : [];
  if (extension.length > 0 && extension.length <= 16) {
    return chars.slice(0, MAX_FILE_NAME - extension.length).join('') + extension.join('');
  }
  return chars.slice(0, MAX_FILE_NAME).join('');
}

/** The part's media type when well formed, application/octet-stream otherwise. */
export function safeContentType(raw: string | undefined): string {
  const type = (raw ?? '').trim().toLowerCase();
  return MEDIA_TYPE.test(type) ? type : 'application/octet-stream';
}
