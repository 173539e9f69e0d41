/** Escapes LIKE wildcards so that user text matches literally (Prisma's `contains` passes `%` and `_` through). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** A case-insensitive substring filter for Prisma string fields, with the text taken literally. */
export const containsText = (text: string) => ({ contains: escapeLike(text), mode: 'insensitive' }) as const;

/** An ILIKE pattern matching `text` anywhere, taken literally (for raw SQL). */
export const likePattern = (text: string) => `%${escapeLike(text)}%`;
