import { Roles } from '../../auth/roles.ts';

/** Who may do what with techniques (the spec's "Who" column). */
export const techniqueRoles = {
  read: Roles.any,
  create: Roles.admin,
  update: Roles.admin,
  review: Roles.leads,
} as const;
