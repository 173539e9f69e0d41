import type { Db } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { isUuid } from '../../validation.ts';

/** A technique named by its record id or its ATT&CK id (T1059.001, case-insensitive), or 404. */
export async function resolveTechnique(db: Db, reference: string, field = 'technique_id'): Promise<{ id: string; ttpId: string }> {
  const text = reference.trim();
  if (!text) throw new ValidationError(field, 'must name a technique');
  // ATT&CK ids are matched case-insensitively (t1059.001); custom ids as written first.
  const where = isUuid(text) ? { id: text } : { OR: [{ ttpId: text }, { ttpId: text.toUpperCase() }] };
  const technique = await db.technique.findFirst({ where, select: { id: true, ttpId: true }, orderBy: { ttpId: 'desc' } });
  if (!technique) throw new NotFoundError('Technique', text);
  return technique;
}

/** Several techniques by reference, in order, each checked. */
export async function resolveTechniques(db: Db, references: readonly string[], field = 'technique_ids') {
  const found = [];
  for (const [index, reference] of references.entries()) found.push(await resolveTechnique(db, reference, `${field}.${index}`));
  return found;
}
