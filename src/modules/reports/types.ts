import type { Test } from '../../generated/prisma/client.ts';
import { builder } from '../../graphql/builder.ts';
import { stateCountsType } from '../test-runs/state-counts.ts';
import { CATALOG_SHAPE } from '../catalog/catalog-shape.ts';
import { cappedListCost, pageItemsCost } from '../../graphql/cost.ts';
import { CoverageStatusEnum, statusCountFields } from '../techniques/types.ts';
import { DetectionResultEnum, TestStateEnum, TestType } from '../test-runs/types.ts';
import type { CoverageReport, StatusCounts, TacticCoverage, TechniqueCoverage } from './coverage.ts';
import { REPORT_KINDS } from './documents/index.ts';
import type { DetectionCounts, RemediationCounts, StateCounts } from './test-results.ts';

export const CoverageReportFilterInput = builder.inputType('CoverageReportFilter', {
  fields: (t) => ({
    tactic: t.string({
      required: false,
      description: 'Any tactic of the technique, by display name, short name or TA id, case-insensitive.',
    }),
    platform: t.string({ required: false, description: 'One of the platforms, case-insensitive.' }),
  }),
});

export const CoverageReportTotals = builder.objectRef<StatusCounts>('CoverageReportTotals').implement({
  description: 'Active techniques by coverage status.',
  fields: (t) => ({
    total: t.exposeInt('total'),
    ...statusCountFields(t),
    coveragePercentage: t.exposeFloat('coveragePercentage', {
      description: '(validated + 0.5 × partial) / total × 100, one decimal; 0 without techniques.',
    }),
  }),
});

const CoverageReportTactic = builder.objectRef<TacticCoverage>('CoverageReportTactic').implement({
  description: 'Coverage of one tactic; a technique counts under each of its tactics.',
  fields: (t) => ({
    tactic: t.exposeString('tactic', { description: 'Display name.' }),
    shortName: t.exposeString('shortName'),
    tacticId: t.exposeString('tacticId', { nullable: true, description: 'TA id; null for a tactic only custom techniques name.' }),
    total: t.exposeInt('total'),
    ...statusCountFields(t),
    coveragePercentage: t.exposeFloat('coveragePercentage'),
  }),
});

const CoverageReportTechnique = builder.objectRef<TechniqueCoverage>('CoverageReportTechnique').implement({
  description: 'One technique of a coverage report with its test counts.',
  fields: (t) => ({
    id: t.exposeID('id'),
    ttpId: t.exposeString('ttpId'),
    name: t.exposeString('name'),
    tactics: t.exposeStringList('tactics', { description: 'Display names, in matrix order.' }),
    platforms: t.exposeStringList('platforms'),
    status: t.expose('status', { type: CoverageStatusEnum }),
    testsTotal: t.exposeInt('testsTotal'),
    testsValidated: t.exposeInt('testsValidated'),
    testsRejected: t.exposeInt('testsRejected'),
    testsOpen: t.exposeInt('testsOpen', { description: 'Tests from draft to in_review.' }),
    lastResult: t.expose('lastResult', {
      type: DetectionResultEnum,
      nullable: true,
      description: 'Detection result of the latest validated test, which decides the status.',
    }),
    lastValidatedAt: t.expose('lastValidatedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const CoverageReportType = builder.objectRef<CoverageReport>('CoverageReport').implement({
  description: 'Coverage of the active techniques matching the filter.',
  fields: (t) => ({
    generatedAt: t.expose('generatedAt', { type: 'DateTime' }),
    tactic: t.exposeString('tactic', { nullable: true, description: 'The tactic filter, as given.' }),
    platform: t.exposeString('platform', { nullable: true, description: 'The platform filter, as given.' }),
    totals: t.field({ type: CoverageReportTotals, resolve: (report) => report.totals }),
    byTactic: t.field({
      type: [CoverageReportTactic],
      complexity: cappedListCost(CATALOG_SHAPE.tactics),
      resolve: (report) => report.byTactic,
    }),
    techniques: t.field({
      type: [CoverageReportTechnique],
      complexity: cappedListCost(CATALOG_SHAPE.techniques),
      resolve: (report) => report.techniques,
    }),
  }),
});

export const TestResultsReportFilterInput = builder.inputType('TestResultsReportFilter', {
  fields: (t) => ({
    state: t.field({ type: TestStateEnum, required: false }),
    dateFrom: t.string({ required: false, description: 'Executed on or after: ISO date (YYYY-MM-DD, UTC) or timestamp with time zone.' }),
    dateTo: t.string({ required: false, description: 'Executed on or before: a date alone includes that whole day (UTC).' }),
  }),
});

const TestStateCountsType = stateCountsType<StateCounts>('ReportTestStateCounts', 'Tests per state.');

const DetectionCountsType = builder.objectRef<DetectionCounts>('ReportDetectionResultCounts').implement({
  description: 'Tests per detection result (none: no result recorded yet).',
  fields: (t) => ({
    detected: t.exposeInt('detected'),
    partiallyDetected: t.exposeInt('partially_detected'),
    notDetected: t.exposeInt('not_detected'),
    none: t.exposeInt('none'),
  }),
});

const RemediationCountsType = builder.objectRef<RemediationCounts>('ReportRemediationCounts').implement({
  description: 'Tests per remediation status.',
  fields: (t) => ({
    pending: t.exposeInt('pending'),
    inProgress: t.exposeInt('in_progress'),
    completed: t.exposeInt('completed'),
    notApplicable: t.exposeInt('not_applicable'),
  }),
});

interface TestsPage {
  items: Test[];
  total: number;
  offset: number;
  limit: number;
}

export const TestResultsReportType = builder
  .objectRef<TestsPage & { byState: StateCounts; byDetectionResult: DetectionCounts }>('TestResultsReport')
  .implement({
    description: 'One page of tests with their results, and counts over the whole selection.',
    fields: (t) => ({
      items: t.field({ type: [TestType], complexity: pageItemsCost, resolve: (report) => report.items }),
      total: t.exposeInt('total', { description: 'Tests matching every filter.' }),
      offset: t.exposeInt('offset'),
      limit: t.exposeInt('limit'),
      byState: t.field({
        type: TestStateCountsType,
        description: 'Tests in the date range per state (the state filter not applied).',
        resolve: (report) => report.byState,
      }),
      byDetectionResult: t.field({
        type: DetectionCountsType,
        description: 'Matching tests per detection result.',
        resolve: (report) => report.byDetectionResult,
      }),
    }),
  });

export const RemediationReportType = builder.objectRef<TestsPage & { byStatus: RemediationCounts }>('RemediationReport').implement({
  description: 'One page of tests with tracked remediation, and counts per status.',
  fields: (t) => ({
    items: t.field({ type: [TestType], complexity: pageItemsCost, resolve: (report) => report.items }),
    total: t.exposeInt('total', { description: 'Tests matching the status filter.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
    byStatus: t.field({
      type: RemediationCountsType,
      description: 'Every tracked test per status (the status filter not applied).',
      resolve: (report) => report.byStatus,
    }),
  }),
});

export const GeneratedReportKindEnum = builder.enumType('GeneratedReportKind', {
  description: 'The generated documents (PDF over REST; their content as JSON here).',
  values: REPORT_KINDS,
});
