import { Roles, type Role } from '../../auth/roles.ts';
import type { CampaignStatus } from '../../generated/prisma/enums.ts';
import { defineLifecycle, type TransitionRow } from '../../lifecycle/kit.ts';

export type CampaignAction = 'activate' | 'complete';

/** Every rule that depends on the status a campaign is in. */
export interface CampaignStateRule {
  /** The definition (schedule, tests) may still change. */
  editable: boolean;
  /** No transition leaves it. */
  terminal: boolean;
}

/** The one table of campaign statuses, in lifecycle order, beside the transition table below. */
export const CAMPAIGN_STATES: Readonly<Record<CampaignStatus, CampaignStateRule>> = {
  draft: { editable: true, terminal: false },
  active: { editable: true, terminal: false },
  completed: { editable: false, terminal: true },
};

export interface CampaignTransition extends TransitionRow<CampaignStatus, CampaignAction> {
  action: CampaignAction;
  /** REST: POST /campaigns/{id}/<path>. */
  path: string;
  /** GraphQL mutation name. */
  mutation: string;
  from: CampaignStatus;
  to: CampaignStatus;
  /** The spec's "Who" column. */
  roles: readonly Role[];
  /** Audit action name. */
  audit: string;
  /** Timestamp column set to the moment of the transition. */
  stamp: 'activatedAt' | 'completedAt';
  summary: string;
}

/** The one campaign transition table: routes, mutations, errors and docs all read it. */
export const CAMPAIGN_TRANSITIONS: readonly CampaignTransition[] = [
  {
    action: 'activate',
    path: 'activate',
    mutation: 'activateCampaign',
    from: 'draft',
    to: 'active',
    roles: Roles.leads,
    audit: 'activate_campaign',
    stamp: 'activatedAt',
    summary: 'Activate: draft → active; sets activated_at and starts the recurring schedule, if any',
  },
  {
    action: 'complete',
    path: 'complete',
    mutation: 'completeCampaign',
    from: 'active',
    to: 'completed',
    roles: Roles.redLead,
    audit: 'complete_campaign',
    stamp: 'completedAt',
    summary:
      'Complete: active → completed; needs at least one test whose execution started; stops the schedule, publishes campaign.completed and notifies the creator and the leads',
  },
];

/** The campaign lifecycle: the two tables above and what derives from them. */
export const campaignLifecycle = defineLifecycle({
  noun: 'campaign',
  inState: (status: CampaignStatus) => `the campaign is ${status}`,
  states: CAMPAIGN_STATES,
  transitions: CAMPAIGN_TRANSITIONS,
});

/** Statuses in which a campaign's definition (metadata, tests, schedule) may still change. */
export const EDITABLE_STATUSES = campaignLifecycle.statesWhere((rule) => rule.editable);
