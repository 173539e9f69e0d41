import { z } from 'zod';
import { containsText, equalsText } from '../../db/search.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import type { TestState } from '../../generated/prisma/enums.ts';

/** Hits per kind: a quick look-up for the app's search field, not a listing. */
export const SEARCH_LIMIT = { defaultLimit: 5, maxLimit: 20 } as const;
export const SEARCH_QUERY_MAX = 100;

const searchSchema = z.object({
  query: z.string().trim().min(1, 'must not be empty').max(SEARCH_QUERY_MAX, `must be at most ${SEARCH_QUERY_MAX} characters`),
  limit: z
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(SEARCH_LIMIT.maxLimit, `must be at most ${SEARCH_LIMIT.maxLimit}`)
    .default(SEARCH_LIMIT.defaultLimit),
});

export interface SearchResults {
  techniques: { id: string; ttpId: string; name: string }[];
  tests: { id: string; name: string; state: TestState; ttpId: string }[];
  playbooks: { id: string; title: string; ttpId: string }[];
}

/**
 * Techniques by ttp id or name (an exact ttp id first), tests by name (most recently changed first) and playbooks by
 * title: case-insensitive substring matches with the text taken literally, each kind at most `limit` rows.
 */
export async function search(services: Services, input: { query: string; limit?: number | null }): Promise<SearchResults> {
  const { query, limit } = parseInput(searchSchema, { query: input.query, limit: input.limit ?? undefined });
  const db = services.prisma;
  const active = { revoked: false, deprecated: false };
  const [exact, techniques, tests, playbooks] = await Promise.all([
    db.technique.findFirst({ where: { ...active, ttpId: equalsText(query) }, select: { id: true, ttpId: true, name: true } }),
    db.technique.findMany({
      where: { ...active, OR: [{ ttpId: containsText(query) }, { name: containsText(query) }] },
      select: { id: true, ttpId: true, name: true },
      orderBy: { ttpId: 'asc' },
      take: limit,
    }),
    db.test.findMany({
      where: { name: containsText(query) },
      select: { id: true, name: true, state: true, technique: { select: { ttpId: true } } },
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
      take: limit,
    }),
    db.playbook.findMany({
      where: { title: containsText(query) },
      select: { id: true, title: true, technique: { select: { ttpId: true } } },
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
      take: limit,
    }),
  ]);
  const others = techniques.filter((technique) => technique.id !== exact?.id);
  return {
    techniques: (exact ? [exact, ...others] : others).slice(0, limit),
    tests: tests.map(({ technique, ...test }) => ({ ...test, ttpId: technique.ttpId })),
    playbooks: playbooks.map(({ technique, ...playbook }) => ({ ...playbook, ttpId: technique.ttpId })),
  };
}
