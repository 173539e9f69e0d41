import { Prisma } from '../../../generated/prisma/client.ts';
import type { CoverageStatus, DetectionResult, TestState, ValidationStatus } from '../../../generated/prisma/enums.ts';
import { NotFoundError } from '../../../errors.ts';
import type { Services } from '../../../services.ts';
import { iso, testFigures, type DocumentBase, type TestFigures } from './shared.ts';
import { isUuid } from '../../../validation.ts';

export interface CampaignTechniqueRow {
  ttp_id: string;
  name: string;
  /** The technique's global coverage status (all its tests, not only this campaign's). */
  status: CoverageStatus;
  tests_total: number;
  tests_validated: number;
  detected: number;
  partially_detected: number;
  not_detected: number;
}

export interface CampaignTestRow {
  id: string;
  name: string;
  ttp_id: string;
  state: TestState;
  detection_result: DetectionResult | null;
  red_validation_status: ValidationStatus | null;
  blue_validation_status: ValidationStatus | null;
  execution_date: string | null;
  decided_at: string | null;
}

export interface CampaignDocument extends DocumentBase {
  kind: 'purple_campaign';
  campaign: {
    id: string;
    name: string;
    description: string;
    type: string;
    status: string;
    threat_actor: string | null;
    start_date: string | null;
    end_date: string | null;
    activated_at: string | null;
    completed_at: string | null;
    created_by: string;
    created_at: string;
  };
  figures: TestFigures;
  techniques: CampaignTechniqueRow[];
  tests: CampaignTestRow[];
}

/** A purple campaign: its metadata, test figures, results per technique and every test. */
export async function campaignDocument(services: Services, id: string): Promise<CampaignDocument> {
  const db = services.prisma;
  const campaign = isUuid(id)
    ? await db.campaign.findUnique({
        where: { id },
        include: { threatActor: { select: { name: true } }, createdBy: { select: { username: true } } },
      })
    : null;
  if (!campaign) throw new NotFoundError('Campaign', id);
  const [figures, techniques, tests] = await Promise.all([
    testFigures(services, Prisma.sql`s.campaign_id = ${id}::uuid`),
    db.$queryRaw<CampaignTechniqueRow[]>`
      SELECT t.ttp_id, t.name, t.status_global::text AS status, count(*)::int AS tests_total,
        count(*) FILTER (WHERE s.state = 'validated')::int AS tests_validated,
        count(*) FILTER (WHERE s.state = 'validated' AND s.detection_result = 'detected')::int AS detected,
        count(*) FILTER (WHERE s.state = 'validated' AND s.detection_result = 'partially_detected')::int AS partially_detected,
        count(*) FILTER (WHERE s.state = 'validated' AND s.detection_result = 'not_detected')::int AS not_detected
      FROM tests s JOIN techniques t ON t.id = s.technique_id
      WHERE s.campaign_id = ${id}::uuid
      GROUP BY t.id ORDER BY t.ttp_id`,
    // Flat rows, read as the document lists them: the technique's id beside each test, no nested object per row.
    db.$queryRaw<(Omit<CampaignTestRow, 'execution_date' | 'decided_at'> & { execution_date: Date | null; decided_at: Date | null })[]>`
      SELECT s.id::text, s.name, t.ttp_id, s.state::text, s.detection_result::text, s.red_validation_status::text,
        s.blue_validation_status::text, s.execution_date, s.decided_at
      FROM tests s JOIN techniques t ON t.id = s.technique_id
      WHERE s.campaign_id = ${id}::uuid
      ORDER BY t.ttp_id, s.created_at, s.id`,
  ]);
  return {
    kind: 'purple_campaign',
    title: `Purple campaign: ${campaign.name}`,
    subtitle: `${campaign.type.charAt(0).toUpperCase()}${campaign.type.slice(1).replace(/_/g, ' ')} campaign, ${campaign.status}${campaign.threatActor ? `, emulating ${campaign.threatActor.name}` : ''}`,
    generated_at: new Date().toISOString(),
    campaign: {
      id: campaign.id,
      name: campaign.name,
      description: campaign.description,
      type: campaign.type,
      status: campaign.status,
      threat_actor: campaign.threatActor?.name ?? null,
      start_date: iso(campaign.startDate),
      end_date: iso(campaign.endDate),
      activated_at: iso(campaign.activatedAt),
      completed_at: iso(campaign.completedAt),
      created_by: campaign.createdBy.username,
      created_at: campaign.createdAt.toISOString(),
    },
    figures,
    techniques,
    tests: tests.map((test) => ({ ...test, execution_date: iso(test.execution_date), decided_at: iso(test.decided_at) })),
  };
}
