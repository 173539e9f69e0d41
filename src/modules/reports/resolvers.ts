import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { TEST_PAGE } from '../test-runs/service.ts';
import { RemediationStatusEnum } from '../test-runs/types.ts';
import { coverageReport } from './coverage.ts';
import { reportDocument } from './documents/index.ts';
import { reportRoles } from './permissions.ts';
import { remediationReport, testResultsReport } from './test-results.ts';
import {
  CoverageReportFilterInput,
  CoverageReportType,
  GeneratedReportKindEnum,
  RemediationReportType,
  TestResultsReportFilterInput,
  TestResultsReportType,
} from './types.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  coverageReport: t.field({
    type: CoverageReportType,
    description: 'Coverage summary: totals by status, per-tactic rows and one row per technique (by ttp id).',
    authScopes: allow(reportRoles.read),
    args: { filter: t.arg({ type: CoverageReportFilterInput, required: false }) },
    resolve: (_root, { filter }, context) => coverageReport(context.services, filter),
  }),
  testResultsReport: t.field({
    type: TestResultsReportType,
    ...pagedList(TEST_PAGE, 'Tests with their results, most recently executed first; the date range applies to execution_date'),
    authScopes: allow(reportRoles.read),
    args: {
      filter: t.arg({ type: TestResultsReportFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context, info) =>
      testResultsReport(context.services, filter, pagingOf({ offset, limit }), queryFromInfo({ context, info, path: ['items'] })),
  }),
  remediationReport: t.field({
    type: RemediationReportType,
    ...pagedList(TEST_PAGE, 'Tests whose remediation is tracked, most recently updated first'),
    authScopes: allow(reportRoles.read),
    args: {
      status: t.arg({ type: RemediationStatusEnum, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { status, offset, limit }, context, info) =>
      remediationReport(context.services, { status }, pagingOf({ offset, limit }), queryFromInfo({ context, info, path: ['items'] })),
  }),
  generatedReport: t.field({
    type: 'JSON',
    description:
      'The content of a generated document, as JSON with snake_case keys (the PDF is drawn from it). id: campaign id for purple_campaign, ' +
      'technique id or ttp id for technique; year and quarter for quarterly_summary (default: the current quarter, UTC).',
    authScopes: allow(reportRoles.generate),
    args: {
      kind: t.arg({ type: GeneratedReportKindEnum, required: true }),
      id: t.arg.string({ required: false }),
      year: t.arg.int({ required: false }),
      quarter: t.arg.int({ required: false }),
    },
    resolve: (_root, args, context) => reportDocument(context.services, args),
  }),
}));
