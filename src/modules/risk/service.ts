import { equalsText } from '../../db/search.ts';
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.ts';
import { CoverageStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, trimmed } from '../../validation.ts';
import { findTactic } from '../techniques/service.ts';
import { LEVEL_THRESHOLDS, RECOMMENDABLE_STATUSES, RiskLevel, UNCOVERED_STATUSES } from './model.ts';
import { pageOf } from '../../db/page-totals.ts';

type Query = { select?: Prisma.RiskProfileSelect; include?: Prisma.RiskProfileInclude };

export const PROFILE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const RECOMMENDATION_LIMIT = { defaultLimit: 10, maxLimit: 50 } as const;
export const TOP_LIMIT = { defaultLimit: 10, maxLimit: 100 } as const;
/** Technique ids listed per matrix cell (the count is always complete). */
export const MATRIX_CELL_IDS = 10;

const pageSchema = page(PROFILE_PAGE.defaultLimit, PROFILE_PAGE.maxLimit);
const limitSchema = ({ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number }) =>
  z.object({ limit: z.number().int().min(1, 'must be at least 1').max(maxLimit, `must be at most ${maxLimit}`).default(defaultLimit) });

const filterSchema = z.object({
  tactic: trimmed(100).nullish(),
  minScore: z.number().min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100').nullish(),
  status: z.enum(CoverageStatus).nullish(),
  level: z.enum(RiskLevel).nullish(),
});

export type RiskProfileFilter = z.input<typeof filterSchema>;

/** Highest risk first; equal scores by more actors, then by ttp id. */
const RISK_ORDER: Prisma.RiskProfileOrderByWithRelationInput[] = [
  { score: 'desc' },
  { actorCount: 'desc' },
  { technique: { ttpId: 'asc' } },
];

/** Profiles whose stored status (the one the figures reflect) is one of `statuses`. */
const storedStatusIn = (statuses: readonly CoverageStatus[]): Prisma.RiskProfileWhereInput => ({
  OR: statuses.map((status) => ({ details: { path: ['status'], equals: status } })),
});

/** Score range of a level: [its threshold, the next level's threshold). */
function levelRange(level: RiskLevel): Prisma.FloatFilter {
  const index = LEVEL_THRESHOLDS.findIndex((threshold) => threshold.level === level);
  return { gte: LEVEL_THRESHOLDS[index].min, ...(index > 0 ? { lt: LEVEL_THRESHOLDS[index - 1].min } : {}) };
}

async function tacticCondition(services: Services, text: string): Promise<Prisma.RiskProfileWhereInput> {
  const tactic = await findTactic(services.prisma, text);
  const shortName = tactic?.shortName ?? text.toLowerCase().replace(/\s+/g, '-');
  const names = [text, ...(tactic ? [tactic.name] : [])];
  return {
    technique: {
      OR: [{ tactics: { has: shortName } }, ...names.map((name) => ({ tactic: equalsText(name) }))],
    },
  };
}

/** Stored profiles, highest score first (filters tactic, min_score, status, level), one page at a time. */
export async function listProfiles(services: Services, filter: unknown, paging: unknown, query: Query = {}) {
  const { tactic, minScore, status, level } = parseInput(filterSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging);
  const and: Prisma.RiskProfileWhereInput[] = [];
  if (tactic) and.push(await tacticCondition(services, tactic));
  if (minScore != null) and.push({ score: { gte: minScore } });
  if (status) and.push(storedStatusIn([status]));
  if (level) and.push({ score: levelRange(level) });
  const where = { AND: and };
  return pageOf({ offset, limit }, [
    services.prisma.riskProfile.findMany({ ...query, where, orderBy: RISK_ORDER, skip: offset, take: limit }),
    services.prisma.riskProfile.count({ where }),
  ]);
}

/** The techniques to test next: the highest risks among those not validated. */
export function recommendations(services: Services, args: { limit?: number | null }, query: Query = {}) {
  const { limit } = parseInput(limitSchema(RECOMMENDATION_LIMIT), { limit: args.limit ?? undefined });
  return services.prisma.riskProfile.findMany({
    ...query,
    where: storedStatusIn(RECOMMENDABLE_STATUSES),
    orderBy: RISK_ORDER,
    take: limit,
  });
}

/** The highest risks among techniques without any established detection. */
export function top(services: Services, args: { limit?: number | null }, query: Query = {}) {
  const { limit } = parseInput(limitSchema(TOP_LIMIT), { limit: args.limit ?? undefined });
  return services.prisma.riskProfile.findMany({ ...query, where: storedStatusIn(UNCOVERED_STATUSES), orderBy: RISK_ORDER, take: limit });
}

/** SQL of the level (critical … low) of a 0–100 value. */
const levelSql = (value: Prisma.Sql) =>
  Prisma.sql`CASE ${Prisma.join(
    LEVEL_THRESHOLDS.map(({ level, min }) => Prisma.sql`WHEN ${value} >= ${min}::float8 THEN ${level}::text`),
    ' ',
  )} END`;

export interface MatrixCell {
  status: CoverageStatus;
  count: number;
  ttpIds: string[];
}
export interface MatrixRow {
  impactLevel: RiskLevel;
  total: number;
  cells: MatrixCell[];
}
export interface RiskMatrix {
  computedAt: Date | null;
  total: number;
  rows: MatrixRow[];
}

/** Impact levels (critical first) × coverage statuses: how many profiles fall in each cell and the riskiest of them. */
export async function matrix(services: Services): Promise<RiskMatrix> {
  const groups = await services.prisma.$queryRaw<
    { impactLevel: RiskLevel; status: CoverageStatus; count: number; ttpIds: string[]; computedAt: Date }[]
  >`
    SELECT ${levelSql(Prisma.sql`rp.impact * 100`)} AS "impactLevel", rp.details->>'status' AS status, count(*)::int AS count,
           (array_agg(t.ttp_id ORDER BY rp.score DESC, rp.actor_count DESC, t.ttp_id))[1:${MATRIX_CELL_IDS}::int] AS "ttpIds",
           max(rp.computed_at) AS "computedAt"
      FROM risk_profiles rp JOIN techniques t ON t.id = rp.technique_id
     GROUP BY 1, 2`;
  const cell = (impactLevel: RiskLevel, status: CoverageStatus) =>
    groups.find((group) => group.impactLevel === impactLevel && group.status === status);
  const rows = LEVEL_THRESHOLDS.map(({ level }) => {
    const cells = Object.values(CoverageStatus).map((status) => ({
      status,
      count: cell(level, status)?.count ?? 0,
      ttpIds: cell(level, status)?.ttpIds ?? [],
    }));
    return { impactLevel: level, total: cells.reduce((sum, { count }) => sum + count, 0), cells };
  });
  const computedAt = groups.reduce<Date | null>(
    (latest, group) => (!latest || group.computedAt > latest ? group.computedAt : latest),
    null,
  );
  return { computedAt, total: rows.reduce((sum, row) => sum + row.total, 0), rows };
}

export interface RiskTactic {
  tactic: string;
  name: string;
  techniques: number;
  averageScore: number;
  maxScore: number;
}

export interface RiskSummary {
  computedAt: Date | null;
  total: number;
  averageScore: number | null;
  averageImpact: number | null;
  averageLikelihood: number | null;
  maxScore: number | null;
  levels: Record<RiskLevel, number>;
  statuses: Record<CoverageStatus, number>;
  uncovered: number;
  staleProfiles: number;
  techniquesWithoutProfile: number;
  tactics: RiskTactic[];
  highestRiskTactic: RiskTactic | null;
}

type SummaryRow = Omit<RiskSummary, 'levels' | 'statuses' | 'tactics' | 'highestRiskTactic'> & {
  levels: Partial<Record<string, number>>;
  statuses: Partial<Record<string, number>>;
};

/** Totals and averages of the stored profiles, counts per level and status, and the tactics by average score. */
export async function summary(services: Services): Promise<RiskSummary> {
  const level = levelSql(Prisma.sql`rp.score`);
  const [[totals], tactics] = await Promise.all([
    services.prisma.$queryRaw<SummaryRow[]>`
      SELECT count(*)::int AS total,
             max(rp.computed_at) AS "computedAt",
             round(avg(rp.score)::numeric, 2)::float8 AS "averageScore",
             round(avg(rp.impact)::numeric, 4)::float8 AS "averageImpact",
             round(avg(rp.likelihood)::numeric, 4)::float8 AS "averageLikelihood",
             max(rp.score) AS "maxScore",
             (SELECT COALESCE(jsonb_object_agg(l, n), '{}') FROM (SELECT ${level} AS l, count(*)::int AS n FROM risk_profiles rp GROUP BY 1) x) AS levels,
             (SELECT COALESCE(jsonb_object_agg(s, n), '{}') FROM (SELECT rp.details->>'status' AS s, count(*)::int AS n FROM risk_profiles rp GROUP BY 1) x) AS statuses,
             count(*) FILTER (WHERE rp.details->>'status' = ANY(${UNCOVERED_STATUSES as string[]}::text[]))::int AS uncovered,
             count(*) FILTER (WHERE t.status_global::text <> rp.details->>'status' OR t.revoked OR t.deprecated)::int AS "staleProfiles",
             (SELECT count(*)::int FROM techniques a
               WHERE NOT a.revoked AND NOT a.deprecated AND NOT EXISTS (SELECT 1 FROM risk_profiles p WHERE p.technique_id = a.id)) AS "techniquesWithoutProfile"
        FROM risk_profiles rp JOIN techniques t ON t.id = rp.technique_id`,
    services.prisma.$queryRaw<RiskTactic[]>`
      SELECT u.short_name AS tactic, COALESCE(ta.name, u.short_name) AS name, count(*)::int AS techniques,
             round(avg(rp.score)::numeric, 2)::float8 AS "averageScore", max(rp.score) AS "maxScore"
        FROM risk_profiles rp
        JOIN techniques t ON t.id = rp.technique_id
        CROSS JOIN LATERAL unnest(t.tactics) AS u(short_name)
        LEFT JOIN tactics ta ON ta.short_name = u.short_name
       GROUP BY u.short_name, ta.name
       ORDER BY "averageScore" DESC, "maxScore" DESC, techniques DESC, u.short_name`,
  ]);
  const { levels, statuses, ...rest } = totals;
  return {
    ...rest,
    levels: Object.fromEntries(LEVEL_THRESHOLDS.map(({ level: name }) => [name, levels[name] ?? 0])) as Record<RiskLevel, number>,
    statuses: Object.fromEntries(Object.values(CoverageStatus).map((status) => [status, statuses[status] ?? 0])) as Record<
      CoverageStatus,
      number
    >,
    tactics,
    highestRiskTactic: tactics[0] ?? null,
  };
}
