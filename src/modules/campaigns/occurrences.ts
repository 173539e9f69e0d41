import { SYSTEM_ACTOR, inTransaction } from '../../db/unit-of-work.ts';
import type { Db } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { insertRetest } from '../test-runs/retests.ts';
import { RETEST_FROM } from '../test-runs/state-machine.ts';
import { occurrenceAt, scheduleIdOf } from './schedule.ts';
import { lockCampaign } from './store.ts';

export interface OccurrenceJobData {
  campaignId: string;
  /** The scheduled time this run stands for (ISO 8601); scheduled runs derive it from the recurrence. */
  occurrence?: string;
}

export type OccurrenceOutcome =
  | { executionId: string; occurrence: string; testIds: string[] }
  | {
      skipped:
        | 'unknown campaign'
        | 'invalid occurrence'
        | 'not active'
        | 'not recurring'
        | 'before start_date'
        | 'after end_date'
        | 'already run';
      occurrence?: string;
    };

/**
 * The latest test of each retest lineage of the campaign, when it is decided (validated or rejected):
 * a lineage whose latest run is still under way gets no new retest.
 */
async function decidedLatestTests(db: Db, campaignId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM (
      SELECT DISTINCT ON (lineage_id) id, state, created_at
      FROM tests WHERE campaign_id = ${campaignId}::uuid
      ORDER BY lineage_id, created_at DESC, id DESC
    ) latest
    WHERE state::text = ANY(${[...RETEST_FROM]}::text[])
    ORDER BY created_at, id`;
  return rows.map((row) => row.id);
}

/**
 * Runs one occurrence of a recurring campaign, at most once (CampaignExecution is unique per occurrence):
 * only while the campaign is active and the occurrence lies within [start_date, end_date]. It creates a
 * retest of every decided latest test of the campaign, in the campaign creator's name, and records the
 * execution and an `executed` history entry, all in one transaction.
 */
export async function runCampaignOccurrence(services: Services, data: OccurrenceJobData): Promise<OccurrenceOutcome> {
  const found = await services.prisma.campaign.findUnique({ where: { id: data.campaignId } });
  if (!found) return { skipped: 'unknown campaign' };
  if (!found.recurrence) return { skipped: 'not recurring' };
  const occurrence = data.occurrence ? new Date(data.occurrence) : occurrenceAt(found.recurrence);
  if (Number.isNaN(occurrence.getTime())) return { skipped: 'invalid occurrence' };
  const at = occurrence.toISOString();
  try {
    return await inTransaction(
      services,
      SYSTEM_ACTOR,
      async (uow): Promise<OccurrenceOutcome> => {
        const locked = await lockCampaign(uow, data.campaignId);
        const { campaign } = locked;
        if (campaign.status !== 'active') return { skipped: 'not active', occurrence: at };
        if (!campaign.recurrence) return { skipped: 'not recurring', occurrence: at };
        if (campaign.startDate && occurrence < campaign.startDate) return { skipped: 'before start_date', occurrence: at };
        if (campaign.endDate && occurrence > campaign.endDate) {
          // No later occurrence can run either: the scheduler entry goes.
          uow.afterCommit(() => services.jobs.removeSchedule(scheduleIdOf(campaign.id)));
          return { skipped: 'after end_date', occurrence: at };
        }
        const key = { campaignId_occurrence: { campaignId: campaign.id, occurrence } };
        if (await uow.tx.campaignExecution.findUnique({ where: key, select: { id: true } }))
          return { skipped: 'already run', occurrence: at };
        const execution = await uow.tx.campaignExecution.create({ data: { campaignId: campaign.id, occurrence, startedAt: locked.now } });
        const testIds: string[] = [];
        for (const testId of await decidedLatestTests(uow.tx, campaign.id)) {
          testIds.push((await insertRetest(uow, campaign.createdById, testId, { select: { id: true } })).id);
        }
        await uow.tx.campaignExecution.update({
          where: { id: execution.id },
          data: { testIds, testsCreated: testIds.length, finishedAt: new Date() },
        });
        const details = { execution_id: execution.id, occurrence: at, tests_created: testIds.length, test_ids: testIds };
        await locked.record({ kind: 'executed', details });
        await uow.audit({ action: 'run_campaign_occurrence', entityType: 'campaign', entityId: campaign.id, details });
        uow.emit('campaign.changed', { campaignId: campaign.id, change: 'executed' });
        return { executionId: execution.id, occurrence: at, testIds };
      },
      { timeout: 120_000, bulk: true },
    );
  } catch (error) {
    // Two runs of one occurrence at the same moment: the other one created it.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return { skipped: 'already run', occurrence: at };
    throw error;
  }
}
