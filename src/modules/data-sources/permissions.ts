import { Roles } from '../../auth/roles.ts';

/** Who may do what with data sources (the spec's "Who" column; listing is open to every signed-in user). */
export const dataSourceRoles = {
  read: Roles.any,
  update: Roles.admin,
  sync: Roles.admin,
} as const;
