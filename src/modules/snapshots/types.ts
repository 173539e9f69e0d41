import { builder } from '../../graphql/builder.ts';
import { CATALOG_SHAPE } from '../catalog/catalog-shape.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import type { CoverageStatus } from '../../generated/prisma/enums.ts';
import { CoverageStatusEnum, statusCountFields } from '../techniques/types.ts';
import { UserSummaryType } from '../users/types.ts';
import { countsOf, SNAPSHOT_KINDS, type SnapshotKind } from './summary.ts';

export const SnapshotKindEnum = builder.enumType('SnapshotKind', {
  description: 'How a snapshot was taken: manual (POST /snapshots), daily (the daily job) or posture (the dashboard).',
  values: SNAPSHOT_KINDS,
});

interface Counts {
  total: number;
  validated: number;
  partial: number;
  inProgress: number;
  notCovered: number;
  notEvaluated: number;
}

export const SnapshotCountsType = builder.objectRef<Counts>('SnapshotCounts').implement({
  description: 'Technique counts by coverage status at the time of a snapshot.',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Active techniques (neither revoked nor deprecated) recorded.' }),
    ...statusCountFields(t),
  }),
});

export const SnapshotTechniqueType = builder.prismaObject('SnapshotTechnique', {
  description: "One technique's coverage status and score at the time of a snapshot.",
  fields: (t) => ({
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.exposeString('ttpId'),
    name: t.string({ select: { technique: { select: { name: true } } }, resolve: (row) => row.technique.name }),
    status: t.expose('status', { type: CoverageStatusEnum }),
    score: t.exposeFloat('score', { nullable: true, description: 'Technique score (0–100) at the time of the snapshot.' }),
    technique: t.relation('technique', { description: 'The technique as it is now.' }),
  }),
});

export const SnapshotType = builder.prismaObject('Snapshot', {
  description: "A point-in-time record of every active technique's coverage status and score.",
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    kind: t.field({ type: SnapshotKindEnum, resolve: (snapshot) => snapshot.kind as SnapshotKind }),
    summary: t.field({
      type: SnapshotCountsType,
      description: 'Technique counts by status.',
      select: { summary: true },
      resolve: (snapshot) => countsOf(snapshot.summary),
    }),
    coveragePercentage: t.exposeFloat('coveragePercentage', {
      description: '(validated + 0.5 × partial) / total × 100, one decimal (as /metrics/summary); 0 without techniques.',
    }),
    score: t.exposeFloat('score', {
      nullable: true,
      description: 'Organisation score: mean technique score (0–100), 2 decimals; null without techniques.',
    }),
    createdById: t.exposeID('createdById', { nullable: true, description: 'Who took it; null for the daily job or a deleted user.' }),
    createdBy: t.relation('createdBy', { type: UserSummaryType, nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    techniques: t.relation('techniques', {
      description: `Every technique recorded, in ttp id order (at most ${CATALOG_SHAPE.techniques}).`,
      query: { orderBy: { ttpId: 'asc' }, take: CATALOG_SHAPE.techniques },
      complexity: cappedListCost(CATALOG_SHAPE.techniques),
    }),
  }),
});

export interface SnapshotPoint extends Counts {
  id: string;
  name: string | null;
  kind: string;
  date: Date;
  coveragePercentage: number;
  score: number | null;
}

export const SnapshotPointType = builder.objectRef<SnapshotPoint>('SnapshotPoint').implement({
  description: 'One snapshot on the coverage timeline: its date, coverage, score and counts.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    kind: t.field({ type: SnapshotKindEnum, resolve: (point) => point.kind as SnapshotKind }),
    date: t.expose('date', { type: 'DateTime', description: 'When the snapshot was taken.' }),
    coveragePercentage: t.exposeFloat('coveragePercentage'),
    score: t.exposeFloat('score', { nullable: true }),
    total: t.exposeInt('total'),
    ...statusCountFields(t),
  }),
});

export const CoverageChangeEnum = builder.enumType('CoverageChange', {
  description: 'Direction of a status change along not_evaluated < not_covered < in_progress < partial < validated.',
  values: ['improved', 'regressed'] as const,
});

interface StatusChange {
  techniqueId: string;
  ttpId: string;
  name: string;
  before: CoverageStatus;
  after: CoverageStatus;
  scoreBefore: number | null;
  scoreAfter: number | null;
  change: 'improved' | 'regressed';
}

export const SnapshotStatusChangeType = builder.objectRef<StatusChange>('SnapshotStatusChange').implement({
  description: 'A technique whose status differs between two snapshots.',
  fields: (t) => ({
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.exposeString('ttpId'),
    name: t.exposeString('name'),
    before: t.expose('before', { type: CoverageStatusEnum, description: 'Status in snapshot a.' }),
    after: t.expose('after', { type: CoverageStatusEnum, description: 'Status in snapshot b.' }),
    scoreBefore: t.exposeFloat('scoreBefore', { nullable: true }),
    scoreAfter: t.exposeFloat('scoreAfter', { nullable: true }),
    change: t.expose('change', { type: CoverageChangeEnum }),
  }),
});

interface TechniqueState {
  techniqueId: string;
  ttpId: string;
  name: string;
  status: CoverageStatus;
}

export const SnapshotTechniqueStateType = builder.objectRef<TechniqueState>('SnapshotTechniqueState').implement({
  description: 'A technique recorded in only one of two compared snapshots, with its status there.',
  fields: (t) => ({
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.exposeString('ttpId'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: CoverageStatusEnum }),
  }),
});

interface Comparison {
  a: SnapshotPoint;
  b: SnapshotPoint;
  changed: StatusChange[];
  improved: number;
  regressed: number;
  unchanged: number;
  onlyInA: TechniqueState[];
  onlyInB: TechniqueState[];
  coverageChange: number;
  scoreChange: number | null;
}

export const SnapshotComparisonType = builder.objectRef<Comparison>('SnapshotComparison').implement({
  description: 'The difference from snapshot a (before) to snapshot b (after).',
  fields: (t) => ({
    a: t.field({ type: SnapshotPointType, resolve: (comparison) => comparison.a }),
    b: t.field({ type: SnapshotPointType, resolve: (comparison) => comparison.b }),
    changed: t.field({
      type: [SnapshotStatusChangeType],
      complexity: cappedListCost(CATALOG_SHAPE.techniques),
      description: 'Techniques in both snapshots whose status changed, in ttp id order.',
      resolve: (comparison) => comparison.changed,
    }),
    improved: t.exposeInt('improved', { description: 'Changed techniques that moved up the coverage order.' }),
    regressed: t.exposeInt('regressed', { description: 'Changed techniques that moved down the coverage order.' }),
    unchanged: t.exposeInt('unchanged', { description: 'Techniques in both snapshots with the same status.' }),
    onlyInA: t.field({
      type: [SnapshotTechniqueStateType],
      complexity: cappedListCost(CATALOG_SHAPE.techniques),
      description: 'Techniques recorded only in a.',
      resolve: (comparison) => comparison.onlyInA,
    }),
    onlyInB: t.field({
      type: [SnapshotTechniqueStateType],
      complexity: cappedListCost(CATALOG_SHAPE.techniques),
      description: 'Techniques recorded only in b.',
      resolve: (comparison) => comparison.onlyInB,
    }),
    coverageChange: t.exposeFloat('coverageChange', { description: 'b.coveragePercentage − a.coveragePercentage.' }),
    scoreChange: t.exposeFloat('scoreChange', { nullable: true, description: 'b.score − a.score.' }),
  }),
});

export interface PosturePoint extends Counts {
  date: string;
  snapshotId: string;
  coveragePercentage: number;
  score: number | null;
}

export const PosturePointType = builder.objectRef<PosturePoint>('PosturePoint').implement({
  description: 'Coverage on one UTC day: the last snapshot taken that day.',
  fields: (t) => ({
    date: t.exposeString('date', { description: 'UTC day, YYYY-MM-DD.' }),
    snapshotId: t.exposeID('snapshotId'),
    coveragePercentage: t.exposeFloat('coveragePercentage'),
    score: t.exposeFloat('score', { nullable: true }),
    total: t.exposeInt('total'),
    ...statusCountFields(t),
  }),
});

export const CreateSnapshotInput = builder.inputType('CreateSnapshotInput', {
  fields: (t) => ({
    name: t.string({ required: false, description: 'Optional label, e.g. "Before Q3 campaign".' }),
  }),
});
