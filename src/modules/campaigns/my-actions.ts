import type { Role } from '../../auth/roles.ts';
import { builder } from '../../graphql/builder.ts';
import type { CampaignStatus } from '../../generated/prisma/enums.ts';
import { campaignRoles } from './permissions.ts';
import { CAMPAIGN_TRANSITIONS, EDITABLE_STATUSES } from './state-machine.ts';

/** What the campaign page can offer besides the transitions: each with the role set and statuses its mutation enforces. */
const DEFINITION_ACTIONS: readonly { action: string; roles: readonly Role[]; statuses: readonly CampaignStatus[] }[] = [
  { action: 'schedule', roles: campaignRoles.schedule, statuses: EDITABLE_STATUSES },
  { action: 'manage_tests', roles: campaignRoles.manageTests, statuses: EDITABLE_STATUSES },
];

/** The actions `role` may take on a campaign in `status`, from the transition table and the rules the mutations enforce. */
export function campaignActionsFor(status: CampaignStatus, role: Role | undefined): string[] {
  if (role === undefined) return [];
  const transitions = CAMPAIGN_TRANSITIONS.filter((row) => row.from === status && row.roles.includes(role)).map((row) => row.action);
  const definition = DEFINITION_ACTIONS.filter((rule) => rule.statuses.includes(status) && rule.roles.includes(role)).map(
    (rule) => rule.action,
  );
  return [...transitions, ...definition];
}

builder.prismaObjectField('Campaign', 'myActions', (t) =>
  t.stringList({
    description:
      "What the caller's role may do with the campaign in its current status: activate, complete (the transition table), schedule, manage_tests (add and remove tests). Empty for viewers.",
    resolve: (campaign, _args, context) => campaignActionsFor(campaign.status, context.auth.principal?.role),
  }),
);
