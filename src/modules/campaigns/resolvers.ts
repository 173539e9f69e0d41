import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import './my-actions.ts';
import './subscriptions.ts';
import { campaignRoles } from './permissions.ts';
import { campaignProgress } from './progress.ts';
import { scheduleCampaign } from './schedule.ts';
import * as campaigns from './service.ts';
import { CAMPAIGN_TRANSITIONS } from './state-machine.ts';
import { createCampaignFromThreatActor } from './threat-actor.ts';
import {
  AddCampaignTestInput,
  CampaignFilterInput,
  CampaignFromThreatActorInput,
  CampaignHistoryType,
  CampaignPage,
  CampaignProgressType,
  CampaignScheduleInput,
  CreateCampaignInput,
  UpdateCampaignInput,
} from './types.ts';
import { applyCampaignTransition } from './workflow.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  campaigns: t.field({
    type: CampaignPage,
    ...pagedList(campaigns.CAMPAIGN_PAGE, 'Campaigns matching the filter, newest first'),
    authScopes: allow(campaignRoles.read),
    args: {
      filter: t.arg({ type: CampaignFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context, info) =>
      campaigns.listCampaigns(
        context.services,
        filter ?? {},
        pagingOf({ offset, limit }),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  campaign: t.prismaField({
    type: 'Campaign',
    description: 'One campaign with its tests and progress.',
    authScopes: allow(campaignRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => campaigns.getCampaign(context.services, String(id), query),
  }),
  campaignProgress: t.field({
    type: CampaignProgressType,
    description: 'Validated tests out of all tests of the campaign, with the count in each state.',
    authScopes: allow(campaignRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => campaignProgress(context.services, String(id)),
  }),
  campaignHistory: t.field({
    type: CampaignHistoryType,
    description: 'Every change of the campaign (oldest first) and every execution of its occurrences.',
    authScopes: allow(campaignRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => campaigns.campaignHistory(context.services, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  createCampaign: t.prismaField({
    type: 'Campaign',
    description: 'Creates a campaign in draft.',
    authScopes: allow(campaignRoles.create),
    args: { input: t.arg({ type: CreateCampaignInput, required: true }) },
    resolve: (query, _root, { input }, context) => campaigns.createCampaign(context.services, principalOf(context), input, query),
  }),
  updateCampaign: t.prismaField({
    type: 'Campaign',
    description: 'Changes name, description, type or threat actor (in any status).',
    authScopes: allow(campaignRoles.update),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateCampaignInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      campaigns.updateCampaign(context.services, principalOf(context), String(id), input, query),
  }),
  deleteCampaign: t.id({
    description: 'Deletes the campaign (its creator or an admin); its tests stay, outside any campaign. Answers the id.',
    authScopes: allow(campaignRoles.delete),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => campaigns.deleteCampaign(context.services, principalOf(context), String(id)),
  }),
  addCampaignTest: t.prismaField({
    type: 'Campaign',
    description: 'Puts an existing test into the campaign (draft or active); a test of another campaign is refused (409).',
    authScopes: allow(campaignRoles.manageTests),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: AddCampaignTestInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      campaigns.addCampaignTest(context.services, principalOf(context), String(id), input, query),
  }),
  removeCampaignTest: t.prismaField({
    type: 'Campaign',
    description: 'Takes a test out of the campaign (draft or active); the test itself stays.',
    authScopes: allow(campaignRoles.manageTests),
    args: { id: t.arg({ type: 'UUID', required: true }), testId: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id, testId }, context) =>
      campaigns.removeCampaignTest(context.services, principalOf(context), String(id), String(testId), query),
  }),
  createCampaignFromThreatActor: t.prismaField({
    type: 'Campaign',
    description:
      'Creates a threat_actor campaign with one draft test per distinct active technique the actor uses, pre-filled from a template when one exists.',
    authScopes: allow(campaignRoles.fromThreatActor),
    args: {
      actorId: t.arg.id({ required: true, description: 'The uuid (or ATT&CK group id) of the threat actor.' }),
      input: t.arg({ type: CampaignFromThreatActorInput, required: false }),
    },
    resolve: (query, _root, { actorId, input }, context) =>
      createCampaignFromThreatActor(context.services, principalOf(context), String(actorId), input ?? {}, query),
  }),
  scheduleCampaign: t.prismaField({
    type: 'Campaign',
    description:
      'Sets start_date, end_date and recurrence (omitted fields stay, null clears); an active recurring campaign is (re)scheduled at once.',
    authScopes: allow(campaignRoles.schedule),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: CampaignScheduleInput, required: true }) },
    resolve: (query, _root, { id, input }, context) => scheduleCampaign(context.services, principalOf(context), String(id), input, query),
  }),
}));

// One mutation per row of the campaign transition table.
for (const row of CAMPAIGN_TRANSITIONS) {
  builder.mutationField(row.mutation, (t) =>
    t.prismaField({
      type: 'Campaign',
      description: row.summary,
      authScopes: allow(row.roles),
      args: { id: t.arg({ type: 'UUID', required: true }) },
      resolve: (query, _root, { id }, context) =>
        applyCampaignTransition(context.services, principalOf(context), String(id), row.action, query),
    }),
  );
}
