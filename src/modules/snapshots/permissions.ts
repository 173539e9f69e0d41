import { Roles } from '../../auth/roles.ts';

/** Who may do what with snapshots and the posture history (the spec's "Who" column). */
export const snapshotRoles = {
  read: Roles.any,
  create: Roles.leads,
  delete: Roles.admin,
} as const;
