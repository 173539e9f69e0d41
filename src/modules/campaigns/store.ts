import type { Prisma } from '../../db/client.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Campaign, CampaignStatus } from '../../generated/prisma/client.ts';
import { lockAndRead } from '../../db/row-lock.ts';
import { assertUuid } from '../../validation.ts';

export type CampaignQuery = { select?: Prisma.CampaignSelect; include?: Prisma.CampaignInclude };

/** Throws 404 for anything that is not a UUID, before it can reach SQL. */
export const assertCampaignId = (id: string): void => assertUuid('Campaign', id);

export interface HistoryEntry {
  kind: string;
  fromStatus?: CampaignStatus | null;
  toStatus?: CampaignStatus | null;
  details?: Prisma.InputJsonValue;
}

/** A campaign locked for the rest of the transaction, and the clock its history is written with. */
export interface LockedCampaign {
  campaign: Campaign;
  /** The moment of this change: never earlier than the campaign's last history entry. */
  now: Date;
  /** Appends history entries, strictly ordered after every earlier one. */
  record(...entries: HistoryEntry[]): Promise<void>;
}

/** Locks the campaign row (SELECT … FOR UPDATE) and re-reads it: changes of one campaign run one after the other. */
export async function lockCampaign(uow: UnitOfWork, id: string): Promise<LockedCampaign> {
  const campaign = await lockAndRead(uow.tx, 'campaigns', 'Campaign', id, () => uow.tx.campaign.findUnique({ where: { id } }));
  const last = await uow.tx.campaignEvent.findFirst({ where: { campaignId: id }, orderBy: { at: 'desc' }, select: { at: true } });
  return historyOf(uow, campaign, last?.at);
}

/** The recorder of a campaign created in this transaction. */
export const newHistory = (uow: UnitOfWork, campaign: Campaign): LockedCampaign => historyOf(uow, campaign, undefined);

function historyOf(uow: UnitOfWork, campaign: Campaign, lastAt: Date | undefined): LockedCampaign {
  let next = Math.max(Date.now(), lastAt ? lastAt.getTime() + 1 : 0);
  return {
    campaign,
    now: new Date(next),
    async record(...entries) {
      if (!entries.length) return;
      await uow.tx.campaignEvent.createMany({
        data: entries.map((entry) => ({
          campaignId: campaign.id,
          kind: entry.kind,
          fromStatus: entry.fromStatus ?? null,
          toStatus: entry.toStatus ?? null,
          details: entry.details ?? {},
          actorId: uow.actor.userId,
          actorName: uow.actor.username,
          at: new Date(next++),
        })),
      });
    },
  };
}
