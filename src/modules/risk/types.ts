import { builder } from '../../graphql/builder.ts';
import { CATALOG_SHAPE } from '../catalog/catalog-shape.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { pageType } from '../../graphql/pagination.ts';
import { CoverageStatusEnum } from '../techniques/types.ts';
import type { RiskComputation } from './compute.ts';
import { levelOf, reasonOf, RiskLevel, type RiskTerms } from './model.ts';
import type { MatrixCell, MatrixRow, RiskMatrix, RiskSummary, RiskTactic } from './service.ts';

/** Rows (risk levels) and cells (coverage statuses) of the risk matrix: five or fewer each. */
const RISK_MATRIX_SIDE = 10;

export const RiskLevelEnum = builder.enumType(RiskLevel, {
  name: 'RiskLevel',
  description: 'Band of a 0–100 value: critical ≥ 60, high ≥ 40, medium ≥ 20, low below (scores, and impact × 100).',
});

const termsOf = (profile: { details: unknown }) => profile.details as RiskTerms;

export const RiskProfileType = builder.prismaObject('RiskProfile', {
  description: 'The risk of one technique at the last computation: impact × likelihood × 100, with every term.',
  fields: (t) => ({
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.string({ select: { technique: { select: { ttpId: true } } }, resolve: (profile) => profile.technique.ttpId }),
    name: t.string({
      description: 'Name of the technique.',
      select: { technique: { select: { name: true } } },
      resolve: (profile) => profile.technique.name,
    }),
    tactic: t.string({
      nullable: true,
      description: 'Primary tactic name of the technique.',
      select: { technique: { select: { tactic: true } } },
      resolve: (profile) => profile.technique.tactic,
    }),
    tactics: t.stringList({
      description: 'Every tactic of the technique (short names).',
      select: { technique: { select: { tactics: true } } },
      resolve: (profile) => profile.technique.tactics,
    }),
    status: t.field({
      type: CoverageStatusEnum,
      description: 'Coverage status the likelihood was derived from (the status at computation).',
      resolve: (profile) => termsOf(profile).status,
    }),
    impact: t.exposeFloat('impact', { description: '0–1: tactic weight × (floor + (1 − floor) × actor prevalence).' }),
    impactLevel: t.field({
      type: RiskLevelEnum,
      description: 'Level of impact × 100.',
      resolve: (profile) => levelOf(profile.impact * 100),
    }),
    likelihood: t.exposeFloat('likelihood', { description: '0–1, from the coverage status.' }),
    score: t.exposeFloat('score', { description: '0–100: impact × likelihood × 100.' }),
    level: t.field({ type: RiskLevelEnum, resolve: (profile) => levelOf(profile.score) }),
    actorCount: t.exposeInt('actorCount', { description: 'Active threat actors using the technique or one of its sub-techniques.' }),
    tacticWeight: t.exposeFloat('tacticWeight', { description: 'Highest weight among the tactics of the technique.' }),
    reason: t.string({
      description: 'The terms in words, e.g. "used by 3 actors, execution tactic (weight 1), not evaluated".',
      resolve: (profile) => reasonOf(termsOf(profile)),
    }),
    stale: t.boolean({
      description: 'True when the technique changed status or was retired since the computation: POST /risk/compute refreshes it.',
      select: { technique: { select: { statusGlobal: true, revoked: true, deprecated: true } } },
      resolve: (profile) =>
        profile.technique.statusGlobal !== termsOf(profile).status || profile.technique.revoked || profile.technique.deprecated,
    }),
    details: t.expose('details', {
      type: 'JSON',
      description: 'Every term of the computation (model_version, prevalence, max_actor_count, weighted_tactic …).',
    }),
    computedAt: t.expose('computedAt', { type: 'DateTime' }),
    technique: t.relation('technique'),
  }),
});

export const RiskProfilePage = pageType('RiskProfilePage', RiskProfileType);

builder.prismaObjectField('Technique', 'riskProfile', (t) =>
  t.relation('riskProfile', { nullable: true, description: 'The risk of the technique at the last computation; null before any.' }),
);

export const RiskProfileFilterInput = builder.inputType('RiskProfileFilter', {
  fields: (t) => ({
    tactic: t.string({
      required: false,
      description: 'Any tactic of the technique, by display name, short name or id (TA0002), case-insensitive.',
    }),
    minScore: t.float({ required: false, description: 'Only scores at or above this (0–100).' }),
    status: t.field({ type: CoverageStatusEnum, required: false, description: 'Coverage status at computation.' }),
    level: t.field({ type: RiskLevelEnum, required: false }),
  }),
});

const RiskLevelCountsType = builder.objectRef<Record<RiskLevel, number>>('RiskLevelCounts').implement({
  description: 'Number of profiles per risk level.',
  fields: (t) => ({
    critical: t.exposeInt('critical'),
    high: t.exposeInt('high'),
    medium: t.exposeInt('medium'),
    low: t.exposeInt('low'),
  }),
});

const CoverageStatusCountsType = builder.objectRef<RiskSummary['statuses']>('RiskStatusCounts').implement({
  description: 'Number of profiles per coverage status at computation.',
  fields: (t) => ({
    validated: t.exposeInt('validated'),
    partial: t.exposeInt('partial'),
    inProgress: t.exposeInt('in_progress'),
    notCovered: t.exposeInt('not_covered'),
    notEvaluated: t.exposeInt('not_evaluated'),
  }),
});

export const RiskComputationType = builder.objectRef<RiskComputation>('RiskComputation').implement({
  description: 'Outcome of a risk computation.',
  fields: (t) => ({
    profiles: t.exposeInt('profiles', { description: 'Profiles written: one per active technique.' }),
    removed: t.exposeInt('removed', { description: 'Profiles dropped because their technique was revoked or deprecated.' }),
    computedAt: t.expose('computedAt', { type: 'DateTime' }),
    levels: t.field({ type: RiskLevelCountsType, resolve: (computation) => computation.levels }),
  }),
});

const RiskMatrixCellType = builder.objectRef<MatrixCell>('RiskMatrixCell').implement({
  fields: (t) => ({
    status: t.field({ type: CoverageStatusEnum, resolve: (cell) => cell.status }),
    count: t.exposeInt('count'),
    ttpIds: t.exposeStringList('ttpIds', { description: 'The highest-risk techniques of the cell (at most 10); count has them all.' }),
  }),
});

const RiskMatrixRowType = builder.objectRef<MatrixRow>('RiskMatrixRow').implement({
  fields: (t) => ({
    impactLevel: t.field({ type: RiskLevelEnum, resolve: (row) => row.impactLevel }),
    total: t.exposeInt('total'),
    cells: t.field({
      type: [RiskMatrixCellType],
      complexity: cappedListCost(RISK_MATRIX_SIDE),
      description: 'One cell per coverage status.',
      resolve: (row) => row.cells,
    }),
  }),
});

export const RiskMatrixType = builder.objectRef<RiskMatrix>('RiskMatrix').implement({
  description: 'Impact levels (critical first) × coverage statuses; every cell present, empty ones with count 0.',
  fields: (t) => ({
    computedAt: t.expose('computedAt', { type: 'DateTime', nullable: true, description: 'Null before any computation.' }),
    total: t.exposeInt('total'),
    rows: t.field({ type: [RiskMatrixRowType], complexity: cappedListCost(RISK_MATRIX_SIDE), resolve: (matrix) => matrix.rows }),
  }),
});

const RiskTacticType = builder.objectRef<RiskTactic>('RiskTactic').implement({
  description: 'Risk of the techniques of one tactic.',
  fields: (t) => ({
    tactic: t.exposeString('tactic', { description: 'Short name, e.g. initial-access.' }),
    name: t.exposeString('name', { description: 'Display name from the catalog (the short name when unknown).' }),
    techniques: t.exposeInt('techniques'),
    averageScore: t.exposeFloat('averageScore'),
    maxScore: t.exposeFloat('maxScore'),
  }),
});

export const RiskSummaryType = builder.objectRef<RiskSummary>('RiskSummary').implement({
  description: 'Aggregates of the stored risk profiles.',
  fields: (t) => ({
    computedAt: t.expose('computedAt', { type: 'DateTime', nullable: true, description: 'Null before any computation.' }),
    total: t.exposeInt('total'),
    averageScore: t.exposeFloat('averageScore', { nullable: true }),
    averageImpact: t.exposeFloat('averageImpact', { nullable: true }),
    averageLikelihood: t.exposeFloat('averageLikelihood', { nullable: true }),
    maxScore: t.exposeFloat('maxScore', { nullable: true }),
    levels: t.field({ type: RiskLevelCountsType, resolve: (summary) => summary.levels }),
    statuses: t.field({ type: CoverageStatusCountsType, resolve: (summary) => summary.statuses }),
    uncovered: t.exposeInt('uncovered', {
      description: 'Profiles without established detection (not covered, not evaluated, in progress).',
    }),
    staleProfiles: t.exposeInt('staleProfiles', { description: 'Profiles whose technique changed status or was retired since.' }),
    techniquesWithoutProfile: t.exposeInt('techniquesWithoutProfile', { description: 'Active techniques added since the computation.' }),
    highestRiskTactic: t.field({
      type: RiskTacticType,
      nullable: true,
      description: 'The tactic with the highest average score.',
      resolve: (summary) => summary.highestRiskTactic,
    }),
    tactics: t.field({
      type: [RiskTacticType],
      complexity: cappedListCost(CATALOG_SHAPE.tactics),
      description: 'Every tactic, highest average score first.',
      resolve: (summary) => summary.tactics,
    }),
  }),
});
