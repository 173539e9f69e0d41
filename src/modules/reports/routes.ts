import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { ValidationError } from '../../errors.ts';
import type { CustomRoute, Route } from '../../../rest-adapter/types.ts';
import { attachmentName, COVERAGE_CSV_COLUMNS, toCsv } from './csv.ts';
import { attachmentDisposition } from '../../storage/content-disposition.ts';
import type { ReportDocument } from './documents/index.ts';
import { reportRoles } from './permissions.ts';
import type { Services } from '../../services.ts';

const TEST_ITEM = `id name platform state detectionResult attackSuccess
  technique { id ttpId name }
  redValidationStatus blueValidationStatus
  executionDate decidedAt campaignId createdAt updatedAt`;

const REMEDIATION_ITEM = `id name state detectionResult technique { id ttpId name }
  remediationStatus remediationSteps remediation_assignee: remediationAssigneeId
  remediation_assignee_user: remediationAssignee { id username displayName }
  remediationCompletedAt updatedAt`;

const COUNTS = `total validated partial notCovered inProgress notEvaluated coveragePercentage`;
const TECHNIQUE_ROW = `id ttpId name tactics platforms status testsTotal testsValidated
  testsRejected testsOpen lastResult lastValidatedAt`;

const COVERAGE_CSV = `query ($tactic: String, $platform: String) {
  coverageReport(filter: { tactic: $tactic, platform: $platform }) { techniques { ${TECHNIQUE_ROW} } }
}`;

const GENERATED =
  'query ($kind: GeneratedReportKind!, $id: String, $year: Int, $quarter: Int) { generatedReport(kind: $kind, id: $id, year: $year, quarter: $quarter) }';

/** A query parameter given at most once, or undefined. */
function queryText(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new ValidationError(name, 'must be given once');
  return value;
}

function queryInt(req: Request, name: string): number | undefined {
  const text = queryText(req, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,4}$/.test(text)) throw new ValidationError(name, 'must be an integer');
  return Number(text);
}

const download = (res: Response, type: string, fileName: string) =>
  res
    .status(200)
    .setHeader('Content-Type', type)
    .setHeader('Content-Disposition', attachmentDisposition(fileName))
    .setHeader('Cache-Control', 'no-store');

type Kind = ReportDocument['kind'];

/** How long a rendered PDF is kept for an identical document (laying out tens of pages costs a few hundred ms). */
const RENDERED_PDF_TTL_MS = 5 * 60_000;

/**
 * The PDF of a document. Rendering is keyed by the document's content (its generation time aside), so a PDF is
 * reused only while every figure in it is unchanged; the document itself is always read afresh. Being keyed by
 * content, renderings are not dropped when other coverage changes (cache tag `rendered`), only when they expire;
 * a reused PDF shows the generation time of its first rendering.
 */
async function renderedPdf(services: Services, report: ReportDocument): Promise<Buffer> {
  const content = createHash('sha256')
    .update(JSON.stringify({ ...report, generated_at: null }))
    .digest('hex');
  const base64 = await services.cache.remember('rendered', `reports:pdf:${content}`, RENDERED_PDF_TTL_MS, async () => {
    // In a worker thread (pdfkit and its fonts are loaded there, at the first PDF): never on the request thread.
    const pdf = await services.pdfRenderer.render(report, content);
    return pdf.toString('base64');
  });
  return Buffer.from(base64, 'base64');
}

/** A generated document: PDF (default) or its JSON content with format=json. */
function generateRoute(kind: Kind, routePath: string, summary: string): CustomRoute {
  return {
    method: 'GET',
    path: routePath,
    tag: 'Reports',
    summary: `${summary}. Query format=pdf (default, a download) or json (the same content as data)`,
    roles: reportRoles.generate,
    expensive: true,
    documents: [GENERATED],
    queryParameters: {
      format: { type: 'string', enum: ['pdf', 'json'], default: 'pdf' },
      year: { type: 'integer', minimum: 0, maximum: 9999 },
      quarter: { type: 'integer', minimum: 0, maximum: 9999 },
    },
    responseTypes: ['application/pdf', 'application/json'],
    async handle(req, res, { execute, context }) {
      const services = context.services;
      const format = queryText(req, 'format') ?? 'pdf';
      if (format !== 'pdf' && format !== 'json') throw new ValidationError('format', 'must be pdf or json');
      const variables = { kind, id: req.params.id, year: queryInt(req, 'year'), quarter: queryInt(req, 'quarter') };
      const report = (await execute(GENERATED, variables)) as ReportDocument;
      if (format === 'json') {
        res.json(report);
        return;
      }
      const pdf = await renderedPdf(services, report);
      const subject = report.kind === 'technique' ? `-${report.technique.ttp_id}` : '';
      download(res, 'application/pdf', attachmentName(`${kind.replace(/_/g, '-')}${subject.replace(/[^A-Za-z0-9.-]/g, '')}`, 'pdf'));
      res.end(pdf);
    },
  };
}

export const reportsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/reports/coverage-summary',
    tag: 'Reports',
    summary:
      'Coverage summary: totals by status, coverage percentage, per-tactic rows and one row per technique (filters tactic, platform)',
    roles: reportRoles.read,
    document: `query ($tactic: String, $platform: String) {
      coverageReport(filter: { tactic: $tactic, platform: $platform }) {
        generatedAt tactic platform
        totals { ${COUNTS} }
        byTactic { tactic shortName tacticId ${COUNTS} }
        techniques { ${TECHNIQUE_ROW} }
      }
    }`,
  },
  {
    method: 'GET',
    path: '/reports/coverage-csv',
    tag: 'Reports',
    summary:
      'The technique rows of the coverage summary as a CSV download (RFC 4180, UTF-8; cells starting with = + - @ tab or CR get a leading apostrophe). Filters tactic, platform',
    roles: reportRoles.read,
    documents: [COVERAGE_CSV],
    queryParameters: { tactic: { type: 'string' }, platform: { type: 'string' } },
    responseTypes: ['text/csv'],
    async handle(req, res, { execute }) {
      const report = (await execute(COVERAGE_CSV, { tactic: queryText(req, 'tactic'), platform: queryText(req, 'platform') })) as {
        techniques: Record<(typeof COVERAGE_CSV_COLUMNS)[number], unknown>[];
      };
      download(res, 'text/csv; charset=utf-8', attachmentName('coverage-report', 'csv')).send(
        toCsv(COVERAGE_CSV_COLUMNS, report.techniques),
      );
    },
  },
  {
    method: 'GET',
    path: '/reports/test-results',
    tag: 'Reports',
    summary:
      'Tests with technique, state, detection result, validations and dates, most recently executed first, with counts by state and result ' +
      '(filters state, date_from, date_to on execution_date: ISO dates, a date alone covering its whole day UTC)',
    roles: reportRoles.read,
    document: `query ($state: TestState, $dateFrom: String, $dateTo: String, $offset: Int, $limit: Int) {
      testResultsReport(filter: { state: $state, dateFrom: $dateFrom, dateTo: $dateTo }, offset: $offset, limit: $limit) {
        items { ${TEST_ITEM} } total offset limit
        byState { draft redExecuting blueEvaluating inReview rejected validated }
        byDetectionResult { detected partiallyDetected notDetected none }
      }
    }`,
  },
  {
    method: 'GET',
    path: '/reports/remediation-status',
    tag: 'Reports',
    summary: 'Tests with tracked remediation and counts by status (filter status: pending, in_progress, completed, not_applicable)',
    roles: reportRoles.read,
    document: `query ($status: RemediationStatus, $offset: Int, $limit: Int) {
      remediationReport(status: $status, offset: $offset, limit: $limit) {
        items { ${REMEDIATION_ITEM} } total offset limit
        byStatus { pending inProgress completed notApplicable }
      }
    }`,
  },
  generateRoute(
    'purple_campaign',
    '/reports/generate/purple-campaign/:id',
    'Purple campaign report: campaign, test figures, results per technique, every test',
  ),
  generateRoute(
    'coverage_summary',
    '/reports/generate/coverage-summary',
    'Coverage status report: figures, charts, per-tactic and per-technique tables',
  ),
  generateRoute(
    'executive_summary',
    '/reports/generate/executive-summary',
    'Executive briefing: coverage, the last 90 days of testing, detection rate, top gaps',
  ),
  generateRoute(
    'quarterly_summary',
    '/reports/generate/quarterly-summary',
    'Quarterly review (query year, quarter; default the current quarter, UTC)',
  ),
  generateRoute('technique', '/reports/generate/technique/:id', 'Per-technique report (id: technique id or ttp id)'),
];
