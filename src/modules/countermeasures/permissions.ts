import { Roles } from '../../auth/roles.ts';

/** Who may read countermeasures (the spec's "Who" column). */
export const countermeasureRoles = {
  read: Roles.any,
} as const;
