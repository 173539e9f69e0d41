import { Roles } from '../../auth/roles.ts';

/** Who may read compliance frameworks, controls and gap analyses (the spec's "Who" column). */
export const complianceRoles = {
  read: Roles.any,
} as const;
