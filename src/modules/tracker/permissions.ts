import { Roles } from '../../auth/roles.ts';

/** The spec's "Who" for /tracker: connections are configured by admins; the leads open and follow issues. */
export const trackerRoles = { manage: Roles.admin, issues: Roles.leads } as const;
