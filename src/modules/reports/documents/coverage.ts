import type { CoverageStatus, DetectionResult } from '../../../generated/prisma/enums.ts';
import type { Services } from '../../../services.ts';
import { coverageReport } from '../coverage.ts';
import { coverageFigures, iso, tacticRows, type CoverageFigures, type DocumentBase, type TacticRow } from './shared.ts';

export interface CoverageTechniqueRow {
  ttp_id: string;
  name: string;
  tactics: string[];
  status: CoverageStatus;
  tests_total: number;
  tests_validated: number;
  last_result: DetectionResult | null;
  last_validated_at: string | null;
}

export interface CoverageSummaryDocument extends DocumentBase {
  kind: 'coverage_summary';
  coverage: CoverageFigures;
  by_tactic: TacticRow[];
  techniques: CoverageTechniqueRow[];
}

/** The coverage status of the whole active catalog. */
export async function coverageSummaryDocument(services: Services): Promise<CoverageSummaryDocument> {
  const report = await coverageReport(services, {});
  return {
    kind: 'coverage_summary',
    title: 'Coverage summary',
    subtitle: 'Detection coverage of the active technique catalog',
    generated_at: report.generatedAt.toISOString(),
    coverage: coverageFigures(report.totals),
    by_tactic: tacticRows(report.byTactic),
    techniques: report.techniques.map((row) => ({
      ttp_id: row.ttpId,
      name: row.name,
      tactics: row.tactics,
      status: row.status,
      tests_total: row.testsTotal,
      tests_validated: row.testsValidated,
      last_result: row.lastResult,
      last_validated_at: iso(row.lastValidatedAt),
    })),
  };
}
