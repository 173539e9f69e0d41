import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { stateCountColumns } from '../test-runs/state-counts.ts';
import type { Db } from '../../db/client.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import type { Context } from '../../graphql/context.ts';
import type { Services } from '../../services.ts';
import { getCampaign } from './service.ts';

/** How far a campaign's tests are: validated out of total, in percent, and the count in each state. */
export interface CampaignProgress {
  validated: number;
  total: number;
  /** validated / total × 100, rounded to two decimals; 0 for a campaign without tests. */
  percentage: number;
  byState: Record<TestState, number>;
}

interface CountRow {
  campaign_id: string;
  total: number;
  draft: number;
  red_executing: number;
  blue_evaluating: number;
  in_review: number;
  rejected: number;
  validated: number;
}

const EMPTY: Record<TestState, number> = { draft: 0, red_executing: 0, blue_evaluating: 0, in_review: 0, rejected: 0, validated: 0 };

function progressOf(row: CountRow | undefined): CampaignProgress {
  if (!row) return { validated: 0, total: 0, percentage: 0, byState: { ...EMPTY } };
  const { campaign_id: _id, total, ...byState } = row;
  return { validated: byState.validated, total, percentage: total ? Math.round((byState.validated / total) * 10_000) / 100 : 0, byState };
}

/** The progress of each campaign, in one grouped query over the tests' campaign index. */
export async function progressOfCampaigns(db: Db, campaignIds: readonly string[]): Promise<Map<string, CampaignProgress>> {
  if (!campaignIds.length) return new Map();
  const rows = await db.$queryRaw<CountRow[]>`
    SELECT campaign_id::text AS campaign_id,
           count(*)::int AS total,
           ${stateCountColumns()}
    FROM tests
    WHERE campaign_id = ANY(${[...campaignIds]}::uuid[])
    GROUP BY campaign_id`;
  const byId = new Map(rows.map((row) => [row.campaign_id, row]));
  return new Map(campaignIds.map((id) => [id, progressOf(byId.get(id))]));
}

export async function campaignProgress(services: Services, id: string): Promise<CampaignProgress> {
  await getCampaign(services, id, { select: { id: true } });
  return (await progressOfCampaigns(services.prisma, [id])).get(id)!;
}

/** Per request: the progress of every campaign a response shows costs one query. */
export const progressLoader = createContextCache(
  (context: Context) =>
    new DataLoader<string, CampaignProgress>(async (ids) => {
      const progress = await progressOfCampaigns(context.services.prisma, ids);
      return ids.map((id) => progress.get(id)!);
    }),
);
