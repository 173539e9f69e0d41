import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { equalsText } from '../../db/search.ts';
import { ValidationError } from '../../errors.ts';
import { isUuid } from '../../validation.ts';

const TTP_ID = /^[A-Za-z][A-Za-z0-9-]{0,30}(\.[A-Za-z0-9]{1,10})?$/;

export type TechniqueKey = { id: string } | { ttpId: string };

/** A technique filter: the technique's uuid, or its ttp id (T1059.001, in any case). */
export const techniqueKey = z
  .string()
  .trim()
  .refine((key) => isUuid(key) || TTP_ID.test(key), 'must be a technique id (UUID) or a ttp id such as T1059.001')
  .transform((key): TechniqueKey => (isUuid(key) ? { id: key.toLowerCase() } : { ttpId: key }));

/** The uuid of the technique a filter names, or null when the catalog has none (the list is then empty). */
export async function techniqueIdOf(db: Db, key: TechniqueKey): Promise<string | null> {
  if ('id' in key) return key.id;
  const technique = await db.technique.findFirst({
    where: { ttpId: equalsText(key.ttpId) },
    orderBy: { ttpId: 'asc' },
    select: { id: true },
  });
  return technique?.id ?? null;
}

/** A technique named by its uuid or its ATT&CK id (T1003.001), resolved by `techniqueIdFor`. */
export const techniqueRef = z.string().trim().min(1, 'must name a technique');

/** Refuses a technique id that names no technique, as a 400 on `field` (the way tests refuse one). */
export async function assertTechnique(db: Db, id: string, field = 'techniqueId'): Promise<void> {
  if (!(await db.technique.findUnique({ where: { id }, select: { id: true } })))
    throw new ValidationError(field, 'no technique with this id');
}
