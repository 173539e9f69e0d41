import { Prisma } from '../../../generated/prisma/client.ts';
import type { CoverageStatus, DetectionResult, RemediationStatus, TestState } from '../../../generated/prisma/enums.ts';
import { NotFoundError } from '../../../errors.ts';
import type { Services } from '../../../services.ts';
import { techniqueScores, type TechniqueScore } from '../../scores/technique-scores.ts';
import { iso, testFigures, type DocumentBase, type TestFigures } from './shared.ts';
import { isUuid } from '../../../validation.ts';

/** How many threat-actor names the report lists (the count covers all). */
const ACTOR_NAMES = 20;
/** How many tests the report lists, the most recent first (the figures cover all of them). */
export const TECHNIQUE_TEST_ROWS = 200;

export interface TechniqueTestRow {
  id: string;
  name: string;
  state: TestState;
  detection_result: DetectionResult | null;
  execution_date: string | null;
  decided_at: string | null;
  campaign: string | null;
  remediation_status: RemediationStatus | null;
}

export interface TechniqueDocument extends DocumentBase {
  kind: 'technique';
  technique: {
    id: string;
    ttp_id: string;
    name: string;
    description: string;
    tactics: string[];
    platforms: string[];
    status: CoverageStatus;
    is_custom: boolean;
    review_required: boolean;
    revoked: boolean;
    deprecated: boolean;
    url: string | null;
  };
  score: { score: number; terms: TechniqueScore['terms'] } | null;
  risk: { score: number; impact: number; likelihood: number; computed_at: string } | null;
  threat_actors: { count: number; names: string[] };
  figures: TestFigures;
  tests: TechniqueTestRow[];
}

/** One technique (by id or ttp id): coverage, score, risk, threat actors, figures over every test and the latest tests. */
export async function techniqueDocument(services: Services, key: string): Promise<TechniqueDocument> {
  const db = services.prisma;
  const technique = await db.technique.findUnique({ where: isUuid(key) ? { id: key } : { ttpId: key }, include: { riskProfile: true } });
  if (!technique) throw new NotFoundError('Technique', key);
  const [tactics, scores, actorCount, actors, figures, tests] = await Promise.all([
    db.tactic.findMany({ where: { shortName: { in: technique.tactics } }, select: { shortName: true, name: true } }),
    techniqueScores(services, [technique.id]),
    db.threatActorTechnique.count({ where: { techniqueId: technique.id } }),
    db.threatActor.findMany({
      where: { techniques: { some: { techniqueId: technique.id } } },
      orderBy: { name: 'asc' },
      take: ACTOR_NAMES,
      select: { name: true },
    }),
    testFigures(services, Prisma.sql`s.technique_id = ${technique.id}::uuid`),
    db.test.findMany({
      where: { techniqueId: technique.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: TECHNIQUE_TEST_ROWS,
      select: {
        id: true,
        name: true,
        state: true,
        detectionResult: true,
        executionDate: true,
        decidedAt: true,
        remediationStatus: true,
        campaign: { select: { name: true } },
      },
    }),
  ]);
  const tacticName = new Map(tactics.map((tactic) => [tactic.shortName, tactic.name]));
  const score = scores.get(technique.id);
  const risk = technique.riskProfile;
  return {
    kind: 'technique',
    title: `Technique ${technique.ttpId}: ${technique.name}`,
    subtitle: technique.tactics.map((shortName) => tacticName.get(shortName) ?? shortName).join(', ') || null,
    generated_at: new Date().toISOString(),
    technique: {
      id: technique.id,
      ttp_id: technique.ttpId,
      name: technique.name,
      description: technique.description,
      tactics: technique.tactics.map((shortName) => tacticName.get(shortName) ?? shortName),
      platforms: technique.platforms,
      status: technique.statusGlobal,
      is_custom: technique.isCustom,
      review_required: technique.reviewRequired,
      revoked: technique.revoked,
      deprecated: technique.deprecated,
      url: technique.url,
    },
    score: score ? { score: score.score, terms: score.terms } : null,
    risk: risk ? { score: risk.score, impact: risk.impact, likelihood: risk.likelihood, computed_at: risk.computedAt.toISOString() } : null,
    threat_actors: { count: actorCount, names: actors.map((actor) => actor.name) },
    figures,
    tests: tests.map((test) => ({
      id: test.id,
      name: test.name,
      state: test.state,
      detection_result: test.detectionResult,
      execution_date: iso(test.executionDate),
      decided_at: iso(test.decidedAt),
      campaign: test.campaign?.name ?? null,
      remediation_status: test.remediationStatus,
    })),
  };
}
