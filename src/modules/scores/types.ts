import { builder } from '../../graphql/builder.ts';
import { CATALOG_SHAPE } from '../catalog/catalog-shape.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { CoverageStatusEnum, statusCountFields } from '../techniques/types.ts';
import type { ScoreConfigView } from './config.ts';
import type { TermPoints, Weights } from './formula.ts';
import type { HeatmapTactic, HeatmapTechnique } from './heatmap.ts';
import type {
  ActorTechnique,
  breakdownOf,
  CoverageCounts,
  OrganizationScore,
  scoreHistory,
  TacticAverage,
  tacticScore,
  threatActorScore,
} from './service.ts';

/** Terms of the score formula (a handful). */
const SCORE_TERM_MAX = 20;
/** Weeks of the longest history period (1y). */
const WEEKS_MAX = 60;

type Breakdown = ReturnType<typeof breakdownOf>;
type TacticScore = Awaited<ReturnType<typeof tacticScore>>;
type ThreatActorScore = Awaited<ReturnType<typeof threatActorScore>>;
type History = Awaited<ReturnType<typeof scoreHistory>>;

export const ScoreWeightsType = builder.objectRef<Weights>('ScoreWeights').implement({
  description: 'Weight of each score term; they add up to 1.',
  fields: (t) => ({
    coverage: t.exposeFloat('coverage'),
    detection: t.exposeFloat('detection'),
    validationFreshness: t.exposeFloat('validation_freshness'),
    detectionRate: t.exposeFloat('detection_rate'),
  }),
});

const ScoreTermType = builder.objectRef<TermPoints & { description: string }>('ScoreTerm').implement({
  description: 'One term of a technique score: points = 100 × weight × value / Σ weights; the points of all terms add up to the score.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'coverage, detection, validation_freshness or detection_rate.' }),
    description: t.exposeString('description'),
    value: t.exposeFloat('value', { description: 'From 0 to 1 (4 decimals).' }),
    weight: t.exposeFloat('weight'),
    points: t.exposeFloat('points', { description: 'Points added to the 0–100 score (2 decimals).' }),
  }),
});

const ScoreInputsType = builder.objectRef<Breakdown['inputs']>('ScoreInputs').implement({
  description: 'The facts the terms are computed from.',
  fields: (t) => ({
    validatedTests: t.exposeInt('validatedTests'),
    detectedTests: t.exposeInt('detectedTests', { description: 'Validated tests with detection result detected.' }),
    partiallyDetectedTests: t.exposeInt('partiallyDetectedTests', {
      description: 'Validated tests with detection result partially_detected.',
    }),
    lastValidatedAt: t.expose('lastValidatedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the latest validated test was decided.',
    }),
    activeDetectionRules: t.exposeInt('activeDetectionRules', { description: 'Active detection rules naming the technique.' }),
  }),
});

export const TechniqueScoreType = builder.objectRef<Breakdown>('TechniqueScore').implement({
  description: 'A technique score (0–100) with the terms that add up to it.',
  fields: (t) => ({
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.exposeString('ttpId'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: CoverageStatusEnum }),
    score: t.exposeFloat('score', { description: 'Sum of the points of the terms.' }),
    formula: t.exposeString('formula'),
    terms: t.field({ type: [ScoreTermType], complexity: cappedListCost(SCORE_TERM_MAX), resolve: (score) => score.terms }),
    inputs: t.field({ type: ScoreInputsType, resolve: (score) => score.inputs }),
  }),
});

const CoverageCountsType = builder.objectRef<CoverageCounts>('ScoreCoverageCounts').implement({
  description:
    'Techniques by coverage status; coverage percentage = (validated + 0.5 × partial) / total × 100, one decimal (null without techniques).',
  fields: (t) => ({
    ...statusCountFields(t),
    coveragePercentage: t.exposeFloat('coveragePercentage', { nullable: true }),
  }),
});

const ScoreTacticType = builder.objectRef<TacticScore['tactic']>('ScoreTactic').implement({
  description: 'A tactic: id (TA…) and matrix order are null for a tactic only custom techniques name.',
  fields: (t) => ({
    id: t.exposeString('id', { nullable: true }),
    shortName: t.exposeString('shortName'),
    name: t.exposeString('name'),
    order: t.exposeInt('order', { nullable: true }),
  }),
});

/** The coverage counts and the weights of an aggregate score (a tactic's, an actor's, the organisation's). */
const COVERAGE_COUNTS = { type: CoverageCountsType, resolve: (score: { coverage: CoverageCounts }) => score.coverage } as const;
const SCORE_WEIGHTS = { type: ScoreWeightsType, resolve: (score: { weights: Weights }) => score.weights } as const;

export const TacticScoreType = builder.objectRef<TacticScore>('TacticScore').implement({
  description: 'The average score of the active techniques of a tactic.',
  fields: (t) => ({
    tactic: t.field({ type: ScoreTacticType, resolve: (score) => score.tactic }),
    score: t.exposeFloat('score', { nullable: true, description: 'Mean technique score (2 decimals); null without techniques.' }),
    techniqueCount: t.exposeInt('techniqueCount'),
    coverage: t.field(COVERAGE_COUNTS),
    weights: t.field(SCORE_WEIGHTS),
  }),
});

const ScoredActorType = builder.objectRef<ThreatActorScore['threatActor']>('ScoredThreatActor').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    externalId: t.exposeString('externalId', { nullable: true, description: 'ATT&CK group id (G0007).' }),
    name: t.exposeString('name'),
  }),
});

const ActorTechniqueScoreType = builder.objectRef<ActorTechnique>('ActorTechniqueScore').implement({
  fields: (t) => ({
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.exposeString('ttpId'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: CoverageStatusEnum }),
    score: t.exposeFloat('score'),
  }),
});

export const ThreatActorScoreType = builder.objectRef<ThreatActorScore>('ThreatActorScore').implement({
  description: 'Coverage against a threat actor: the active techniques it uses, their average score and statuses.',
  fields: (t) => ({
    threatActor: t.field({ type: ScoredActorType, resolve: (score) => score.threatActor }),
    score: t.exposeFloat('score', { nullable: true, description: 'Mean score of the techniques the actor uses; null when it uses none.' }),
    techniqueCount: t.exposeInt('techniqueCount'),
    coverage: t.field(COVERAGE_COUNTS),
    techniques: t.field({
      type: [ActorTechniqueScoreType],
      complexity: cappedListCost(CATALOG_SHAPE.techniques),
      description: 'Lowest score first (the gaps).',
      resolve: (score) => score.techniques,
    }),
    weights: t.field(SCORE_WEIGHTS),
  }),
});

const TacticAverageType = builder.objectRef<TacticAverage>('TacticScoreAverage').implement({
  fields: (t) => ({
    id: t.exposeString('id', { nullable: true }),
    shortName: t.exposeString('shortName'),
    name: t.exposeString('name'),
    order: t.exposeInt('order', { nullable: true }),
    score: t.exposeFloat('score', { nullable: true }),
    techniqueCount: t.exposeInt('techniqueCount'),
  }),
});

export const OrganizationScoreType = builder.objectRef<OrganizationScore>('OrganizationScore').implement({
  description: 'The mean score of every active technique, overall and per tactic (cached up to 5 minutes).',
  fields: (t) => ({
    score: t.exposeFloat('score', { nullable: true, description: 'Mean technique score (2 decimals); null without techniques.' }),
    techniqueCount: t.exposeInt('techniqueCount'),
    byTactic: t.field({ type: [TacticAverageType], complexity: cappedListCost(CATALOG_SHAPE.tactics), resolve: (score) => score.byTactic }),
    weights: t.field(SCORE_WEIGHTS),
    computedAt: t.expose('computedAt', { type: 'DateTime' }),
  }),
});

const ScoreHistoryWeekType = builder.objectRef<History['weeks'][number]>('ScoreHistoryWeek').implement({
  description: 'A week (from Monday 00:00 UTC) and the last snapshot taken in it; nulls when there was none.',
  fields: (t) => ({
    weekStart: t.expose('weekStart', { type: 'DateTime' }),
    snapshotId: t.exposeID('snapshotId', { nullable: true }),
    snapshotAt: t.expose('snapshotAt', { type: 'DateTime', nullable: true }),
    score: t.exposeFloat('score', { nullable: true }),
    coveragePercentage: t.exposeFloat('coveragePercentage', { nullable: true }),
  }),
});

export const ScoreHistoryType = builder.objectRef<History>('ScoreHistory').implement({
  fields: (t) => ({
    period: t.exposeString('period'),
    weeks: t.field({ type: [ScoreHistoryWeekType], complexity: cappedListCost(WEEKS_MAX), resolve: (history) => history.weeks }),
  }),
});

const ScoreTermDefinitionType = builder.objectRef<ScoreConfigView['terms'][number]>('ScoreTermDefinition').implement({
  fields: (t) => ({ name: t.exposeString('name'), description: t.exposeString('description') }),
});

export const ScoreConfigType = builder.objectRef<ScoreConfigView>('ScoreConfig').implement({
  description: 'The scoring weights.',
  fields: (t) => ({
    weights: t.field({ type: ScoreWeightsType, resolve: (config) => config.weights }),
    defaults: t.field({ type: ScoreWeightsType, resolve: (config) => config.defaults }),
    terms: t.field({ type: [ScoreTermDefinitionType], complexity: cappedListCost(SCORE_TERM_MAX), resolve: (config) => config.terms }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
    updatedById: t.exposeID('updatedById', { nullable: true }),
  }),
});

const ScoreWeightsInput = builder.inputType('ScoreWeightsInput', {
  description: 'Weights to change (each from 0 to 1); with the unchanged ones they must add up to 1 (± 0.001).',
  fields: (t) => ({
    coverage: t.float({ required: false }),
    detection: t.float({ required: false }),
    validationFreshness: t.float({ required: false }),
    detectionRate: t.float({ required: false }),
  }),
});

export const UpdateScoreConfigInput = builder.inputType('UpdateScoreConfigInput', {
  fields: (t) => ({ weights: t.field({ type: ScoreWeightsInput, required: true }) }),
});

export const HeatmapTechniqueType = builder.objectRef<HeatmapTechnique>('HeatmapTechnique');
HeatmapTechniqueType.implement({
  fields: (t) => ({
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.exposeString('ttpId'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: CoverageStatusEnum }),
    score: t.exposeFloat('score'),
    subTechniques: t.field({
      type: [HeatmapTechniqueType],
      complexity: cappedListCost(CATALOG_SHAPE.subTechniquesPerTechnique),
      description: 'Its sub-techniques in this tactic, by ttp id.',
      resolve: (technique) => technique.subTechniques,
    }),
  }),
});

const HeatmapTacticType = builder.objectRef<HeatmapTactic>('HeatmapTactic').implement({
  description:
    'A column of the matrix. id (TA…) and order are null for tactics only custom techniques name and for the column of techniques without a tactic (shortName null too).',
  fields: (t) => ({
    id: t.exposeString('id', { nullable: true }),
    shortName: t.exposeString('shortName', { nullable: true }),
    name: t.exposeString('name'),
    order: t.exposeInt('order', { nullable: true }),
    techniques: t.field({
      type: [HeatmapTechniqueType],
      complexity: cappedListCost(CATALOG_SHAPE.techniquesPerTactic),
      resolve: (tactic) => tactic.techniques,
    }),
  }),
});

export const HeatmapType = builder
  .objectRef<{ platform: string | null; techniqueCount: number; tactics: HeatmapTactic[] }>('Heatmap')
  .implement({
    description: 'Every active technique in matrix order with its coverage status and score.',
    fields: (t) => ({
      platform: t.exposeString('platform', { nullable: true }),
      techniqueCount: t.exposeInt('techniqueCount', {
        description: 'Distinct techniques shown (a technique under two tactics counts once).',
      }),
      tactics: t.field({
        type: [HeatmapTacticType],
        complexity: cappedListCost(CATALOG_SHAPE.tactics),
        resolve: (heatmap) => heatmap.tactics,
      }),
    }),
  });
