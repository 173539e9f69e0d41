/** Escapes LIKE wildcards so that user text matches literally (Prisma's `contains` passes `%` and `_` through). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** A case-insensitive substring filter for Prisma string fields, with the text taken literally. */
export const containsText = (text: string) => ({ contains: escapeLike(text), mode: 'insensitive' }) as const;

/**
 * A case-insensitive equality filter for Prisma string fields, with the text taken literally: on PostgreSQL,
 * Prisma turns `equals` with `mode: 'insensitive'` into ILIKE, which would read `%`, `_` and `\` as a pattern.
 */
export const equalsText = (text: string) => ({ equals: escapeLike(text), mode: 'insensitive' }) as const;

/** An ILIKE pattern matching `text` anywhere, taken literally (for raw SQL). */
export const likePattern = (text: string) => `%${escapeLike(text)}%`;
