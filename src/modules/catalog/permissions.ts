import { Roles } from '../../auth/roles.ts';

/** Who may do what with the ATT&CK catalog (the spec's "Who" column). */
export const catalogRoles = {
  read: Roles.any,
} as const;
