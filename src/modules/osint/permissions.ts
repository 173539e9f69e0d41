import { Roles } from '../../auth/roles.ts';

/** Who may do what in the OSINT module (the spec's row: RL, BL, A); feeds are configured and synced by admins. */
export const osintRoles = {
  read: Roles.leads,
  review: Roles.leads,
  manageFeeds: Roles.admin,
  syncFeed: Roles.admin,
} as const;
