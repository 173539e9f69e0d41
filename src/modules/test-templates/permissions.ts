import { Roles } from '../../auth/roles.ts';

/** Who may do what with test templates (the spec's "Who" column). */
export const templateRoles = {
  read: Roles.any,
  create: Roles.leads,
  update: Roles.leads,
  delete: Roles.leads,
  stats: Roles.admin,
  toggleActive: Roles.admin,
} as const;
