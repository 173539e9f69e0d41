import { Roles } from '../../auth/roles.ts';

/** Who may read which report (the spec's "Who" column): generated documents are not for technicians. */
export const reportRoles = {
  read: Roles.any,
  generate: Roles.leadsAndViewer,
} as const;
