import { Roles, type Role } from '../../auth/roles.ts';
import type { CampaignStatus } from '../../generated/prisma/enums.ts';

export type CampaignAction = 'activate' | 'complete';

export interface CampaignTransition {
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

export const CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['draft', 'active', 'completed'];

export const campaignTransitionFor = (action: CampaignAction): CampaignTransition =>
  CAMPAIGN_TRANSITIONS.find((row) => row.action === action)!;

/** Statuses a campaign can move to from `status` (the `valid_transitions` of an INVALID_TRANSITION error). */
export function validCampaignTransitions(status: CampaignStatus): CampaignStatus[] {
  const targets = CAMPAIGN_TRANSITIONS.filter((row) => row.from === status).map((row) => row.to);
  return CAMPAIGN_STATUSES.filter((candidate) => targets.includes(candidate));
}

/** Statuses in which a campaign's definition (metadata, tests, schedule) may still change. */
export const EDITABLE_STATUSES: readonly CampaignStatus[] = ['draft', 'active'];
