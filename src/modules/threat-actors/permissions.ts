import { Roles } from '../../auth/roles.ts';

/** Who may do what with threat actors (the spec's "Who" column). */
export const threatActorRoles = {
  read: Roles.any,
} as const;
