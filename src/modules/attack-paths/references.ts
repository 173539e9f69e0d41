import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { ValidationError } from '../../errors.ts';
import { isUuid } from '../../validation.ts';
import { normalizeTtpId } from '../test-templates/service.ts';

/** A technique named by its uuid or its ttp id (T1059.001, any case; a custom technique's id as written). */
export const techniqueRef = z
  .string('must be a technique uuid or ttp id')
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters');

export interface ResolvedTechnique {
  id: string;
  ttpId: string;
  name: string;
}

/** A reference and the input field it came from, for the 400 that names it. */
export interface Reference {
  value: string;
  field: string;
}

/**
 * The techniques the references name, in their order, read with one query. A reference that names no
 * technique, or a revoked or deprecated one, is a 400 naming its field.
 */
export async function resolveTechniques(db: Db, references: readonly Reference[]): Promise<ResolvedTechnique[]> {
  if (!references.length) return [];
  const ids = references.filter((ref) => isUuid(ref.value)).map((ref) => ref.value.toLowerCase());
  const ttpIds = references.filter((ref) => !isUuid(ref.value)).map((ref) => normalizeTtpId(ref.value));
  const found = await db.technique.findMany({
    where: { OR: [{ id: { in: ids } }, { ttpId: { in: ttpIds } }] },
    select: { id: true, ttpId: true, name: true, revoked: true, deprecated: true },
  });
  const byKey = new Map(found.flatMap((technique) => [[technique.id, technique] as const, [technique.ttpId, technique] as const]));
  return references.map((ref) => {
    const technique = byKey.get(isUuid(ref.value) ? ref.value.toLowerCase() : normalizeTtpId(ref.value));
    if (!technique) throw new ValidationError(ref.field, 'names no technique (give its uuid or its ttp_id)');
    if (technique.revoked || technique.deprecated) {
      throw new ValidationError(ref.field, `${technique.ttpId} is ${technique.revoked ? 'revoked' : 'deprecated'}`);
    }
    return { id: technique.id, ttpId: technique.ttpId, name: technique.name };
  });
}

/** Checks that every named template exists and is active (one query); a bad one is a 400 naming its field. */
export async function assertTemplates(db: Db, references: readonly Reference[]): Promise<void> {
  if (!references.length) return;
  const found = await db.testTemplate.findMany({
    where: { id: { in: references.map((ref) => ref.value) } },
    select: { id: true, isActive: true },
  });
  const active = new Map(found.map((template) => [template.id, template.isActive]));
  for (const ref of references) {
    if (!active.has(ref.value)) throw new ValidationError(ref.field, 'no test template with this id');
    if (!active.get(ref.value)) throw new ValidationError(ref.field, 'the template is inactive');
  }
}
