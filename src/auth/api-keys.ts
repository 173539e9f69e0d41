import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'svc_';
const KEY_BYTES = 32;

/** A new key value (`svc_` + 64 hex characters) and what is stored of it. */
export function generateApiKey(): { value: string; hash: string; prefix: string } {
  const value = `${API_KEY_PREFIX}${randomBytes(KEY_BYTES).toString('hex')}`;
  return { value, hash: hashApiKey(value), prefix: value.slice(0, API_KEY_PREFIX.length + 8) };
}

/** Keys carry 256 random bits, so a plain SHA-256 is a safe, fast lookup hash. */
export const hashApiKey = (value: string) => createHash('sha256').update(value).digest('hex');

export const looksLikeApiKey = (credential: string) => /^svc_[0-9a-f]{16,}$/.test(credential);
