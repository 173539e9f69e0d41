import { ValidationError } from '../../../errors.ts';
import type { Services } from '../../../services.ts';
import { campaignDocument, type CampaignDocument } from './campaign.ts';
import { coverageSummaryDocument, type CoverageSummaryDocument } from './coverage.ts';
import { executiveDocument, quarterlyDocument, type ExecutiveDocument, type QuarterlyDocument } from './periodic.ts';
import type { ReportKind } from './shared.ts';
import { techniqueDocument, type TechniqueDocument } from './technique.ts';

export { REPORT_KINDS, type ReportKind } from './shared.ts';

export type ReportDocument = CampaignDocument | CoverageSummaryDocument | ExecutiveDocument | QuarterlyDocument | TechniqueDocument;

export interface ReportRequest {
  kind: ReportKind;
  /** Campaign id, or technique id / ttp id. */
  id?: string | null;
  year?: number | null;
  quarter?: number | null;
}

function required(id: string | null | undefined): string {
  if (!id?.trim()) throw new ValidationError('id', 'is required for this report');
  return id.trim();
}

/** The content of a generated report; the PDF is drawn from exactly this. */
export function reportDocument(services: Services, request: ReportRequest): Promise<ReportDocument> {
  switch (request.kind) {
    case 'purple_campaign':
      return campaignDocument(services, required(request.id));
    case 'coverage_summary':
      return coverageSummaryDocument(services);
    case 'executive_summary':
      return executiveDocument(services);
    case 'quarterly_summary':
      return quarterlyDocument(services, request.year, request.quarter);
    case 'technique':
      return techniqueDocument(services, required(request.id));
  }
}
