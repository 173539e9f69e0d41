import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { parseInput } from '../../validation.ts';
import { findTactic } from '../techniques/service.ts';

const scopeSchema = z.object({
  tactic: z.string().trim().max(100, 'must be at most 100 characters').nullish(),
  platform: z.string().trim().max(64, 'must be at most 64 characters').nullish(),
});

export type TechniqueScopeFilter = z.input<typeof scopeSchema>;

/** The techniques a coverage report covers, as a SQL condition on `techniques t`. */
export interface TechniqueScope {
  where: Prisma.Sql;
  /** Short name of the tactic filtered on; per-tactic rows are limited to it. */
  tacticShortName: string | null;
  tactic: string | null;
  platform: string | null;
}

/** ATT&CK-style short name of a tactic name that is not in the catalog: "Defense Evasion" → defense-evasion. */
const slug = (text: string) => text.trim().toLowerCase().replace(/\s+/g, '-');

/**
 * Active (not revoked, not deprecated) techniques, filtered like the technique list: tactic matches any of a
 * technique's tactics by display name, short name or TA id (case-insensitive); platform matches any platform.
 */
export async function techniqueScope(db: Db, filter: TechniqueScopeFilter | null | undefined): Promise<TechniqueScope> {
  const { tactic, platform } = parseInput(scopeSchema, filter ?? {});
  const conditions = [Prisma.sql`NOT t.revoked AND NOT t.deprecated`];
  let tacticShortName: string | null = null;
  if (tactic) {
    const known = await findTactic(db, tactic);
    tacticShortName = known?.shortName ?? slug(tactic);
    const names = [tactic, ...(known ? [known.name] : [])].map((name) => name.toLowerCase());
    conditions.push(Prisma.sql`(${tacticShortName} = ANY(t.tactics) OR lower(t.tactic) IN (${Prisma.join(names)}))`);
  }
  if (platform) {
    conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM unnest(t.platforms) AS p WHERE lower(p) = lower(${platform}))`);
  }
  return { where: Prisma.join(conditions, ' AND '), tacticShortName, tactic: tactic || null, platform: platform || null };
}
