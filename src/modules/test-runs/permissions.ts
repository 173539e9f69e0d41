import { Roles } from '../../auth/roles.ts';

/** Who may do what with tests (the spec's "Who" column); transitions carry their own roles in the table. */
export const testRoles = {
  read: Roles.any,
  create: Roles.leads,
  update: Roles.leads,
  classify: Roles.admin,
  updateRed: Roles.red,
  updateBlue: Roles.blue,
  updateRemediation: Roles.leads,
  timer: Roles.allButViewer,
  retest: Roles.leads,
} as const;
