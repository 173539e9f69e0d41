/**
 * A stored secret (an SMTP password, later a tracker token) is bound to the destination it was given for. When a
 * change moves any of the destination's fields (host, port, security, user name …), the stored secret is dropped
 * unless the same change gives it again: an admin-scope caller cannot send it somewhere else, or in clear.
 */
export function movesDestination<T>(fields: readonly (keyof T)[], before: T, after: T): boolean {
  return fields.some((field) => before[field] !== after[field]);
}
