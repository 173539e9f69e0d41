import { Role, Roles } from '../../auth/roles.ts';

/** Who may read which report (the spec's "Who" column): generated documents are not for technicians. */
export const reportRoles = {
  read: Roles.any,
  generate: [Role.admin, Role.red_lead, Role.blue_lead, Role.viewer],
} as const;
