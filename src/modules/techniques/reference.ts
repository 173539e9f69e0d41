import type { Db } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { isUuid } from '../../validation.ts';
import { normalizeTtpId } from '../test-templates/service.ts';

/** A technique named by its record id or its ttp id (an ATT&CK id in any case, a custom id as written), or 404. */
export async function resolveTechnique(db: Db, reference: string, field = 'technique_id'): Promise<{ id: string; ttpId: string }> {
  const text = reference.trim();
  if (!text) throw new ValidationError(field, 'must name a technique');
  const where = isUuid(text) ? { id: text.toLowerCase() } : { ttpId: normalizeTtpId(text) };
  const technique = await db.technique.findUnique({ where, select: { id: true, ttpId: true } });
  if (!technique) throw new NotFoundError('Technique', text);
  return technique;
}
