import type { Principal } from '../../auth/access.ts';
import type { Role } from '../../auth/roles.ts';
import { builder } from '../../graphql/builder.ts';
import type { CampaignStatus } from '../../generated/prisma/enums.ts';
import { campaignRoles, mayDelete } from './permissions.ts';
import { campaignLifecycle, EDITABLE_STATUSES } from './state-machine.ts';

/** What the campaign page can offer besides the transitions: each with the role set and statuses its mutation enforces. */
const DEFINITION_ACTIONS: readonly { action: string; roles: readonly Role[]; statuses: readonly CampaignStatus[] }[] = [
  { action: 'schedule', roles: campaignRoles.schedule, statuses: EDITABLE_STATUSES },
  { action: 'manage_tests', roles: campaignRoles.manageTests, statuses: EDITABLE_STATUSES },
  { action: 'edit', roles: campaignRoles.update, statuses: campaignLifecycle.stateNames },
  { action: 'delete', roles: campaignRoles.delete, statuses: campaignLifecycle.stateNames },
];

/** The per-record rules beside the role sets: deleting is for the creator or an admin. */
const passesRecordRule = (action: string, principal: Principal, campaign: { createdById: string }): boolean =>
  action !== 'delete' || mayDelete(principal, campaign);

/** The actions `principal` may take on `campaign`, from the transition table and the rules the mutations enforce. */
export function campaignActionsFor(campaign: { status: CampaignStatus; createdById: string }, principal: Principal | undefined): string[] {
  if (principal === undefined) return [];
  const { role } = principal;
  const { status } = campaign;
  const transitions = campaignLifecycle.actionsFor(status, role);
  const definition = DEFINITION_ACTIONS.filter(
    (rule) => rule.statuses.includes(status) && rule.roles.includes(role) && passesRecordRule(rule.action, principal, campaign),
  ).map((rule) => rule.action);
  return [...transitions, ...definition];
}

builder.prismaObjectField('Campaign', 'myActions', (t) =>
  t.stringList({
    description:
      'What the caller may do with the campaign in its current status: activate, complete (the transition table), schedule, manage_tests (add and remove tests), edit (name, description, type), delete (its creator or an admin). Empty for viewers.',
    resolve: (campaign, _args, context) => campaignActionsFor(campaign, context.auth.principal ?? undefined),
  }),
);
