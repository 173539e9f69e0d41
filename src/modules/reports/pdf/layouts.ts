import { DATA_SOURCE_DEFAULTS } from '../../data-sources/defaults.ts';
import type { ReportDocument } from '../documents/index.ts';
import type { CampaignDocument } from '../documents/campaign.ts';
import type { CoverageSummaryDocument } from '../documents/coverage.ts';
import type { ExecutiveDocument, QuarterlyDocument } from '../documents/periodic.ts';
import type { Gap } from '../documents/shared.ts';
import type { TechniqueDocument } from '../documents/technique.ts';
import { PdfReport } from './canvas.ts';
import {
  count,
  coverageFigureBoxes,
  day,
  percent,
  resultBars,
  stateBars,
  statusBars,
  TACTIC_COLUMNS,
  tacticBars,
  tacticCells,
  testFigureBoxes,
  words,
} from './format.ts';

/** Technique data comes from MITRE ATT&CK: every page carries its attribution. */
const NOTICE = DATA_SOURCE_DEFAULTS.attack_enterprise.licence.notice;

/** Longest technique description printed (the JSON form has it whole). */
const DESCRIPTION_CHARS = 1_500;

const percentOf100 = { max: 100, format: percent };

function gapsTable(pdf: PdfReport, gaps: Gap[]) {
  pdf.section('Top coverage gaps');
  pdf.paragraph(
    'Not covered first, then partially covered, then never evaluated; by risk score, then by the number of threat actors using the technique.',
    { muted: true },
  );
  pdf.table(
    [
      { header: 'ID', width: 1.2 },
      { header: 'Technique', width: 4 },
      { header: 'Status', width: 1.6 },
      { header: 'Risk score', width: 1.2, align: 'right' },
      { header: 'Threat actors', width: 1.4, align: 'right' },
      { header: 'Tests', width: 0.9, align: 'right' },
    ],
    gaps.map((gap) => [
      gap.ttp_id,
      gap.name,
      words(gap.status),
      gap.risk_score == null ? '-' : gap.risk_score.toFixed(1),
      count(gap.actor_count),
      count(gap.tests_total),
    ]),
    { empty: 'No gaps' },
  );
}

function coverageSummary(pdf: PdfReport, report: CoverageSummaryDocument) {
  pdf.section('Coverage');
  pdf.figures(coverageFigureBoxes(report.coverage));
  pdf.barChart('Techniques by coverage status', statusBars(report.coverage));
  pdf.barChart('Coverage percentage by tactic', tacticBars(report.by_tactic), percentOf100);
  pdf.section('Coverage by tactic');
  pdf.table(TACTIC_COLUMNS, tacticCells(report.by_tactic));
  pdf.section('Techniques');
  pdf.table(
    [
      { header: 'ID', width: 1.5 },
      { header: 'Technique', width: 3 },
      { header: 'Tactics', width: 2.2 },
      { header: 'Status', width: 1.5 },
      { header: 'Tests', width: 0.9, align: 'right' },
      { header: 'Validated', width: 1.4, align: 'right' },
      { header: 'Last result', width: 1.6 },
      { header: 'Last validated', width: 1.5 },
    ],
    report.techniques.map((row) => [
      row.ttp_id,
      row.name,
      row.tactics.join(', '),
      words(row.status),
      count(row.tests_total),
      count(row.tests_validated),
      words(row.last_result),
      day(row.last_validated_at),
    ]),
    { empty: 'No techniques' },
  );
}

function periodTests(pdf: PdfReport, report: ExecutiveDocument | QuarterlyDocument) {
  pdf.section(`Testing: ${report.period.label}`);
  pdf.figures([
    { label: 'Tests executed', value: count(report.tests.executed) },
    { label: 'Tests validated', value: count(report.tests.validated) },
    { label: 'Tests rejected', value: count(report.tests.rejected) },
    { label: 'Detection rate', value: percent(report.tests.detection_rate) },
    { label: 'Detected', value: count(report.tests.detected) },
    { label: 'Partially detected', value: count(report.tests.partially_detected) },
    { label: 'Not detected', value: count(report.tests.not_detected) },
    { label: 'Open tests now', value: count(report.tests.open_now) },
  ]);
  pdf.barChart('Results of the tests validated in the period', resultBars(report.tests));
}

function remediationAndCampaigns(pdf: PdfReport, report: ExecutiveDocument | QuarterlyDocument) {
  pdf.section('Remediation and campaigns');
  pdf.figures([
    { label: 'Remediation pending', value: count(report.remediation.pending) },
    { label: 'Remediation in progress', value: count(report.remediation.in_progress) },
    { label: 'Remediation completed', value: count(report.remediation.completed) },
    { label: 'Not applicable', value: count(report.remediation.not_applicable) },
    { label: 'Active campaigns', value: count(report.campaigns.active) },
    { label: 'Campaigns completed', value: count(report.campaigns.completed_in_period) },
  ]);
}

function executiveSummary(pdf: PdfReport, report: ExecutiveDocument) {
  pdf.section('Coverage now');
  pdf.figures(coverageFigureBoxes(report.coverage));
  pdf.barChart('Techniques by coverage status', statusBars(report.coverage));
  periodTests(pdf, report);
  remediationAndCampaigns(pdf, report);
  gapsTable(pdf, report.top_gaps);
  pdf.section('Coverage by tactic');
  pdf.barChart('Coverage percentage by tactic', tacticBars(report.by_tactic), percentOf100);
}

function quarterlySummary(pdf: PdfReport, report: QuarterlyDocument) {
  pdf.section('Coverage');
  const trend = report.coverage_trend;
  pdf.figures([
    ...coverageFigureBoxes(report.coverage),
    { label: 'Coverage at start', value: percent(trend.start) },
    { label: 'Coverage at end', value: percent(trend.end) },
    { label: 'Change', value: trend.change == null ? 'n/a' : `${trend.change > 0 ? '+' : ''}${trend.change.toFixed(1)} pts` },
  ]);
  pdf.paragraph(
    'Coverage at start and end come from the latest posture snapshot before each date (the live figure while the quarter runs).',
    { muted: true },
  );
  pdf.barChart('Techniques by coverage status', statusBars(report.coverage));
  periodTests(pdf, report);
  pdf.barChart(
    'Tests validated per month',
    report.by_month.map((month) => ({ label: month.month, value: month.validated })),
  );
  pdf.table(
    [
      { header: 'Month', width: 2 },
      { header: 'Executed', width: 1.5, align: 'right' },
      { header: 'Validated', width: 1.5, align: 'right' },
      { header: 'Rejected', width: 1.5, align: 'right' },
    ],
    report.by_month.map((month) => [month.month, count(month.executed), count(month.validated), count(month.rejected)]),
  );
  remediationAndCampaigns(pdf, report);
  pdf.section('Campaigns completed in the quarter');
  pdf.table(
    [
      { header: 'Campaign', width: 4 },
      { header: 'Completed', width: 1.5 },
      { header: 'Tests', width: 1, align: 'right' },
      { header: 'Validated', width: 1.2, align: 'right' },
    ],
    report.campaigns.completed.map((campaign) => [
      campaign.name,
      day(campaign.completed_at),
      count(campaign.tests_total),
      count(campaign.tests_validated),
    ]),
    { empty: 'No campaign completed' },
  );
  gapsTable(pdf, report.top_gaps);
  pdf.section('Coverage by tactic');
  pdf.table(TACTIC_COLUMNS, tacticCells(report.by_tactic));
}

function campaign(pdf: PdfReport, report: CampaignDocument) {
  const c = report.campaign;
  pdf.section('Campaign');
  pdf.details([
    ['Name', c.name],
    ['Type', words(c.type)],
    ['Status', words(c.status)],
    ['Threat actor', c.threat_actor ?? '-'],
    ['Schedule', c.start_date || c.end_date ? `${day(c.start_date)} to ${c.end_date ? day(c.end_date) : 'open end'}` : 'Not scheduled'],
    ['Activated', day(c.activated_at)],
    ['Completed', day(c.completed_at)],
    ['Created by', c.created_by],
  ]);
  if (c.description) pdf.paragraph(c.description.slice(0, DESCRIPTION_CHARS));
  pdf.section('Results');
  pdf.figures(testFigureBoxes(report.figures));
  pdf.barChart('Tests by state', stateBars(report.figures));
  pdf.barChart('Detection results of validated tests', resultBars(report.figures));
  pdf.section('Techniques');
  pdf.table(
    [
      { header: 'ID', width: 1.2 },
      { header: 'Technique', width: 3.6 },
      { header: 'Global status', width: 1.6 },
      { header: 'Tests', width: 0.9, align: 'right' },
      { header: 'Validated', width: 1.2, align: 'right' },
      { header: 'Detected', width: 1.1, align: 'right' },
      { header: 'Partial', width: 1, align: 'right' },
      { header: 'Missed', width: 1, align: 'right' },
    ],
    report.techniques.map((row) => [
      row.ttp_id,
      row.name,
      words(row.status),
      count(row.tests_total),
      count(row.tests_validated),
      count(row.detected),
      count(row.partially_detected),
      count(row.not_detected),
    ]),
    { empty: 'No tests in this campaign' },
  );
  pdf.section('Tests');
  pdf.table(
    [
      { header: 'Test', width: 3.4 },
      { header: 'ID', width: 1.2 },
      { header: 'State', width: 1.5 },
      { header: 'Result', width: 1.7 },
      { header: 'Red lead', width: 1.2 },
      { header: 'Blue lead', width: 1.2 },
      { header: 'Executed', width: 1.4 },
    ],
    report.tests.map((test) => [
      test.name,
      test.ttp_id,
      words(test.state),
      words(test.detection_result),
      words(test.red_validation_status),
      words(test.blue_validation_status),
      day(test.execution_date),
    ]),
    { empty: 'No tests in this campaign' },
  );
}

function technique(pdf: PdfReport, report: TechniqueDocument) {
  const t = report.technique;
  pdf.section('Technique');
  pdf.details([
    ['ID', t.ttp_id],
    ['Name', t.name],
    ['Tactics', t.tactics.join(', ') || '-'],
    ['Platforms', t.platforms.join(', ') || '-'],
    ['Coverage status', words(t.status)],
    ['Score', report.score ? `${report.score.score.toFixed(1)} / 100` : '-'],
    ['Risk score', report.risk ? report.risk.score.toFixed(1) : 'not computed'],
    [
      'Threat actors',
      report.threat_actors.count
        ? `${count(report.threat_actors.count)}: ${report.threat_actors.names.join(', ')}${report.threat_actors.count > report.threat_actors.names.length ? ', …' : ''}`
        : 'none known',
    ],
    ['Source', t.is_custom ? 'Custom technique' : (t.url ?? 'ATT&CK')],
  ]);
  if (t.description) {
    pdf.section('Description');
    const description =
      t.description.length > DESCRIPTION_CHARS ? `${t.description.slice(0, DESCRIPTION_CHARS).trimEnd()}…` : t.description;
    pdf.paragraph(description);
  }
  pdf.section('Tests');
  pdf.figures(testFigureBoxes(report.figures));
  pdf.barChart('Tests by state', stateBars(report.figures));
  pdf.barChart('Detection results of validated tests', resultBars(report.figures));
  pdf.table(
    [
      { header: 'Test', width: 3.4 },
      { header: 'State', width: 1.5 },
      { header: 'Result', width: 1.7 },
      { header: 'Executed', width: 1.3 },
      { header: 'Decided', width: 1.3 },
      { header: 'Campaign', width: 2 },
      { header: 'Remediation', width: 1.5 },
    ],
    report.tests.map((test) => [
      test.name,
      words(test.state),
      words(test.detection_result),
      day(test.execution_date),
      day(test.decided_at),
      test.campaign ?? '-',
      words(test.remediation_status),
    ]),
    { empty: 'No tests yet' },
  );
}

/** Draws a generated report; the caller pipes the returned (ended) document to its destination. */
export function renderPdf(report: ReportDocument): PDFKit.PDFDocument {
  const pdf = new PdfReport({ title: report.title, subtitle: report.subtitle, generatedAt: report.generated_at, notice: NOTICE });
  switch (report.kind) {
    case 'coverage_summary':
      coverageSummary(pdf, report);
      break;
    case 'executive_summary':
      executiveSummary(pdf, report);
      break;
    case 'quarterly_summary':
      quarterlySummary(pdf, report);
      break;
    case 'purple_campaign':
      campaign(pdf, report);
      break;
    case 'technique':
      technique(pdf, report);
      break;
  }
  return pdf.end();
}
