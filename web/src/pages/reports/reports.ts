/** The reports of the REST API the page offers: what each needs, and the path that produces it. */
export type ReportKey = 'coverage_csv' | 'coverage_summary' | 'executive_summary' | 'quarterly_summary' | 'purple_campaign' | 'technique';

export interface ReportChoice {
  key: ReportKey;
  label: string;
  description: string;
  format: 'CSV' | 'PDF';
  /** Generated documents are for the role set that may generate them; the CSV is for every role. */
  generated: boolean;
}

export const REPORTS: readonly ReportChoice[] = [
  {
    key: 'executive_summary',
    label: 'Executive briefing',
    description: 'Coverage, the last 90 days of testing, detection rate and the top gaps.',
    format: 'PDF',
    generated: true,
  },
  {
    key: 'coverage_summary',
    label: 'Coverage status',
    description: 'Figures, charts, and the per-tactic and per-technique tables.',
    format: 'PDF',
    generated: true,
  },
  {
    key: 'quarterly_summary',
    label: 'Quarterly review',
    description: 'One quarter of testing and coverage.',
    format: 'PDF',
    generated: true,
  },
  {
    key: 'purple_campaign',
    label: 'Purple campaign',
    description: 'A campaign: its test figures, results per technique and every test.',
    format: 'PDF',
    generated: true,
  },
  { key: 'technique', label: 'Technique', description: 'One technique: coverage, tests and results.', format: 'PDF', generated: true },
  {
    key: 'coverage_csv',
    label: 'Coverage table',
    description: 'One row per technique with its status and test counts, for a spreadsheet.',
    format: 'CSV',
    generated: false,
  },
];

export interface ReportInputs {
  tactic?: string;
  platform?: string;
  year?: string;
  quarter?: string;
  campaign?: string;
  technique?: string;
}

const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** The REST path (under /api/v1) of a report with its inputs. */
export function reportPath(key: ReportKey, inputs: ReportInputs): string {
  switch (key) {
    case 'coverage_csv':
      return `/reports/coverage-csv${query({ tactic: inputs.tactic, platform: inputs.platform })}`;
    case 'coverage_summary':
      return '/reports/generate/coverage-summary';
    case 'executive_summary':
      return '/reports/generate/executive-summary';
    case 'quarterly_summary':
      return `/reports/generate/quarterly-summary${query({ year: inputs.year, quarter: inputs.quarter })}`;
    case 'purple_campaign':
      return `/reports/generate/purple-campaign/${encodeURIComponent(inputs.campaign ?? '')}`;
    case 'technique':
      return `/reports/generate/technique/${encodeURIComponent(inputs.technique?.trim() ?? '')}`;
  }
}
