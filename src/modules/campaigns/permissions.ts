import type { Principal } from '../../auth/access.ts';
import { Roles } from '../../auth/roles.ts';
import { ForbiddenError } from '../../errors.ts';

/** Who may do what with campaigns (the spec's "Who" column); transitions carry their own roles in the table. */
export const campaignRoles = {
  read: Roles.any,
  create: Roles.leads,
  update: Roles.leads,
  /** Every role that can create a campaign; the creator rule below narrows it per record. */
  delete: Roles.leads,
  manageTests: Roles.leads,
  fromThreatActor: Roles.leads,
  schedule: Roles.leads,
} as const;

/** DELETE: only the campaign's creator or an admin. */
export function mayDelete(principal: Principal, campaign: { createdById: string }): boolean {
  return principal.role === 'admin' || principal.userId === campaign.createdById;
}

export function assertMayDelete(principal: Principal, campaign: { createdById: string }): void {
  if (!mayDelete(principal, campaign)) {
    throw new ForbiddenError('Only the creator of the campaign or an admin may delete it');
  }
}
