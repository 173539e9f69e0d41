import type { Db } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { isUuid } from '../../validation.ts';
import { normalizeTtpId } from '../test-templates/service.ts';

/** The uuid of the technique an input names (uuid or ttp id), or a 400 on `field` when none has it. */
export async function techniqueIdFor(db: Db, reference: string, field = 'techniqueId'): Promise<string> {
  try {
    return (await resolveTechnique(db, reference, field)).id;
  } catch (error) {
    if (error instanceof NotFoundError) throw new ValidationError(field, 'no technique with this id');
    throw error;
  }
}

/** The uuid of the technique an input names (uuid or ttp id), or null when the catalog has none (a filter then matches nothing). */
export async function techniqueIdOrNull(db: Db, reference: string): Promise<string | null> {
  try {
    return (await resolveTechnique(db, reference)).id;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** A technique named by its record id or its ttp id (an ATT&CK id in any case, a custom id as written), or 404. */
export async function resolveTechnique(db: Db, reference: string, field = 'technique_id'): Promise<{ id: string; ttpId: string }> {
  const text = reference.trim();
  if (!text) throw new ValidationError(field, 'must name a technique');
  const where = isUuid(text) ? { id: text.toLowerCase() } : { ttpId: normalizeTtpId(text) };
  const technique = await db.technique.findUnique({ where, select: { id: true, ttpId: true } });
  if (!technique) throw new NotFoundError('Technique', text);
  return technique;
}
