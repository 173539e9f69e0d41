import type { Principal } from '../../auth/access.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import type { Campaign } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { NoExecutedTestsError } from './errors.ts';
import { progressOfCampaigns } from './progress.ts';
import { followSchedule } from './schedule.ts';
import { campaignLifecycle, type CampaignAction } from './state-machine.ts';
import { lockCampaign, type CampaignQuery } from './store.ts';

/**
 * Runs one row of the campaign transition table in one transaction: lock the campaign, check the row
 * against its current status, then write the change, its history entry, the audit entry and what follows.
 */
export function applyCampaignTransition(
  services: Services,
  principal: Principal,
  id: string,
  action: CampaignAction,
  query: CampaignQuery = {},
) {
  const row = campaignLifecycle.transition(action);
  return inTransaction(services, principal, async (uow) => {
    const locked = await lockCampaign(uow, id);
    const { campaign: before, now } = locked;
    campaignLifecycle.assertFrom(row, before.status);
    if (action === 'complete') await assertSomeTestExecuted(uow, id);
    const campaign = await uow.tx.campaign.update({ where: { id }, data: { status: row.to, [row.stamp]: now, version: { increment: 1 } } });
    await locked.record({ kind: 'state_changed', fromStatus: before.status, toStatus: row.to, details: { action: row.path } });
    await uow.audit({
      action: row.audit,
      entityType: 'campaign',
      entityId: id,
      details: { action: row.path, from_state: before.status, to_state: row.to },
    });
    uow.emit('campaign.changed', { campaignId: id, change: row.to });
    if (action === 'complete') await completed(uow, campaign);
    // Activation starts a recurring campaign's occurrences; completion stops them.
    followSchedule(services, uow, campaign);
    return uow.tx.campaign.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** The spec: a campaign completes only when at least one of its tests has been activated (execution started). */
async function assertSomeTestExecuted(uow: UnitOfWork, campaignId: string): Promise<void> {
  const executed = await uow.tx.test.findFirst({ where: { campaignId, executionDate: { not: null } }, select: { id: true } });
  if (!executed) throw new NoExecutedTestsError();
}

/** campaign.completed: the notice table tells the creator and the leads (in-app and e-mail); webhooks follow it too. */
async function completed(uow: UnitOfWork, campaign: Campaign): Promise<void> {
  const progress = (await progressOfCampaigns(uow.tx, [campaign.id])).get(campaign.id)!;
  uow.emit('campaign.completed', {
    campaignId: campaign.id,
    name: campaign.name,
    testCount: progress.total,
    validatedCount: progress.validated,
    percentage: progress.percentage,
  });
}
