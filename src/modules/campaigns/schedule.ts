import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { ValidationError } from '../../errors.ts';
import type { Campaign } from '../../generated/prisma/client.ts';
import type { DynamicSchedule, Repeat } from '../../jobs/types.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { campaignLifecycle, EDITABLE_STATUSES } from './state-machine.ts';
import { lockCampaign, type CampaignQuery } from './store.ts';

/** The job that runs one occurrence of a recurring campaign. */
export const OCCURRENCE_JOB = 'run-campaign-occurrence';
export const scheduleIdOf = (campaignId: string) => `campaign:${campaignId}`;

const CRON_MACRO = /^@(yearly|annually|monthly|weekly|daily|midnight|hourly)$/;

/**
 * Why `pattern` is not an acceptable recurrence, or null: 5 cron fields (or a macro), UTC, at most hourly.
 * With one minute value, two occurrences are always at least an hour apart; with more, some are closer.
 */
export function recurrenceProblem(pattern: string): string | null {
  if (!CRON_MACRO.test(pattern) && pattern.split(/\s+/).length !== 5) {
    return 'must be a cron expression with 5 fields (minute hour day-of-month month day-of-week, UTC) or null';
  }
  try {
    if (CronExpressionParser.parse(pattern, { tz: 'UTC' }).fields.minute.values.length > 1)
      return 'must not recur more often than once an hour';
  } catch (error) {
    return `is not a valid cron expression (${(error as Error).message})`;
  }
  return null;
}

export const recurrence = z
  .string()
  .trim()
  .max(100, 'must be at most 100 characters')
  .superRefine((value, ctx) => {
    const problem = recurrenceProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** end_date may not come before start_date (checked on the values the campaign will have). */
export function periodProblem(startDate: Date | null | undefined, endDate: Date | null | undefined): string | null {
  return startDate && endDate && endDate < startDate ? 'must not be before start_date' : null;
}

/**
 * The scheduled occurrence a run at `now` stands for: the latest tick of the pattern at or before it.
 * A minute of slack keeps a run that fires a little early (clock skew) on its own occurrence.
 */
export function occurrenceAt(pattern: string, now = new Date()): Date {
  return CronExpressionParser.parse(pattern, { tz: 'UTC', currentDate: new Date(now.getTime() + 60_000) })
    .prev()
    .toDate();
}

/** The next occurrence that will run: after now, not before start_date, not after end_date; null when none. */
export function nextOccurrence(campaign: Pick<Campaign, 'status' | 'recurrence' | 'startDate' | 'endDate'>, now = new Date()): Date | null {
  if (campaign.status === 'completed' || !campaign.recurrence) return null;
  const from = campaign.startDate && campaign.startDate > now ? new Date(campaign.startDate.getTime() - 1) : now;
  try {
    const next = CronExpressionParser.parse(campaign.recurrence, { tz: 'UTC', currentDate: from }).next().toDate();
    return campaign.endDate && next > campaign.endDate ? null : next;
  } catch {
    return null;
  }
}

/** The recurrence the scheduler holds for a campaign: only an active one with a pattern and a future left. */
export function repeatOf(campaign: Pick<Campaign, 'status' | 'recurrence' | 'endDate'>, now = new Date()): Repeat | null {
  if (campaign.status !== 'active' || !campaign.recurrence || recurrenceProblem(campaign.recurrence)) return null;
  if (campaign.endDate && campaign.endDate < now) return null;
  return { pattern: campaign.recurrence, tz: 'UTC' };
}

const scheduleData = (campaign: Pick<Campaign, 'id' | 'name'>) => ({ campaignId: campaign.id, name: campaign.name });

/**
 * Makes the campaign's scheduler entry follow the change once it commits; while the queue is known to be
 * unreachable the change is refused (503) instead of being kept without its schedule.
 */
export function followSchedule(services: Services, uow: UnitOfWork, campaign: Campaign): void {
  services.jobs.assertAvailable();
  uow.afterCommit(() => applySchedule(services, campaign));
}

/** Registers, replaces or removes the campaign's scheduler entry to match what it is now. */
async function applySchedule(services: Services, campaign: Campaign): Promise<void> {
  const repeat = repeatOf(campaign);
  if (repeat) await services.jobs.upsertSchedule(scheduleIdOf(campaign.id), OCCURRENCE_JOB, repeat, scheduleData(campaign));
  else await services.jobs.removeSchedule(scheduleIdOf(campaign.id));
}

/** The scheduler entries of every recurring active campaign, registered again at each start. */
export async function campaignSchedules(services: Services): Promise<DynamicSchedule[]> {
  const now = new Date();
  const campaigns = await services.prisma.campaign.findMany({
    where: { status: 'active', recurrence: { not: null }, OR: [{ endDate: null }, { endDate: { gte: now } }] },
    orderBy: { createdAt: 'asc' },
  });
  return campaigns.flatMap((campaign) => {
    const repeat = repeatOf(campaign, now);
    if (!repeat)
      services.log.warn({ campaignId: campaign.id, recurrence: campaign.recurrence }, 'campaign recurrence is not valid; not scheduled');
    return repeat ? [{ id: scheduleIdOf(campaign.id), repeat, data: scheduleData(campaign) }] : [];
  });
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

const scheduleSchema = z.object({
  startDate: z.date().nullish(),
  endDate: z.date().nullish(),
  recurrence: recurrence.nullish(),
});

/**
 * Sets the campaign's period and recurrence (omitted fields stay, null clears; nothing changed, nothing recorded).
 * An active campaign's scheduler entry follows in the same step; a draft's is registered when it is activated.
 */
export function scheduleCampaign(services: Services, principal: Principal, id: string, input: unknown, query: CampaignQuery = {}) {
  const changes = parseInput(scheduleSchema, input ?? {});
  return inTransaction(services, principal, async (uow) => {
    const locked = await lockCampaign(uow, id);
    const { campaign: before } = locked;
    campaignLifecycle.assertIn('EDIT_NOT_ALLOWED', 'Scheduling', before.status, EDITABLE_STATUSES);
    const after = { ...before, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) } as Campaign;
    const problem = periodProblem(after.startDate, after.endDate);
    if (problem) throw new ValidationError('endDate', problem);
    if (sameTime(after.startDate, before.startDate) && sameTime(after.endDate, before.endDate) && after.recurrence === before.recurrence) {
      return uow.tx.campaign.findUniqueOrThrow({ ...query, where: { id } });
    }
    const details = {
      start_date: after.startDate?.toISOString() ?? null,
      end_date: after.endDate?.toISOString() ?? null,
      recurrence: after.recurrence,
    };
    const campaign = await uow.tx.campaign.update({
      where: { id },
      data: { startDate: after.startDate, endDate: after.endDate, recurrence: after.recurrence, version: { increment: 1 } },
    });
    await locked.record({ kind: 'scheduled', details });
    await uow.audit({ action: 'schedule_campaign', entityType: 'campaign', entityId: id, details });
    uow.emit('campaign.changed', { campaignId: id, change: 'scheduled' });
    followSchedule(services, uow, campaign);
    return uow.tx.campaign.findUniqueOrThrow({ ...query, where: { id } });
  });
}
