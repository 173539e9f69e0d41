import { Roles } from '../../auth/roles.ts';

/** Who may do what with risk profiles (the spec's "Who" column). */
export const riskRoles = {
  read: Roles.any,
  compute: Roles.leads,
} as const;
