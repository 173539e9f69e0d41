import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadMatches } from '../../events/bus.ts';
import type { EventOf } from '../../events/types.ts';
import { campaignRoles } from './permissions.ts';

type CampaignChange = EventOf<'campaign.changed'>;

const CampaignChangeType = builder.objectRef<CampaignChange>('CampaignChange').implement({
  description: 'A campaign changed: edited, scheduled, moved to another status, a test added or removed, executed, or deleted.',
  fields: (t) => ({
    campaignId: t.id({ resolve: (change) => change.payload.campaignId }),
    change: t.string({
      description: 'What changed: created, updated, scheduled, test_added, test_removed, executed, deleted, or the status it moved to.',
      resolve: (change) => change.payload.change,
    }),
    actorId: t.id({ nullable: true, resolve: (change) => change.actorId }),
    occurredAt: t.field({ type: 'DateTime', resolve: (change) => change.occurredAt }),
    campaign: t.prismaField({
      type: 'Campaign',
      nullable: true,
      description: 'The campaign as it is now; null once it is deleted.',
      resolve: (query, change, _args, context) =>
        context.services.prisma.campaign.findUnique({ ...query, where: { id: change.payload.campaignId } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  campaignChanged: t.field({
    type: CampaignChangeType,
    description:
      "Streams the changes of one campaign, or of every campaign, from any API process (its tests' state changes are testStateChanged's).",
    authScopes: allow(campaignRoles.read),
    args: { campaignId: t.arg({ type: 'UUID', required: false }) },
    subscribe: (_root, { campaignId }, context) => context.services.bus.stream('campaign.changed', payloadMatches({ campaignId })),
    resolve: (change) => change,
  }),
}));
