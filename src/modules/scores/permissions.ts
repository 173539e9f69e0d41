import { Roles } from '../../auth/roles.ts';

/** Who may read scores and the heatmap, and who may change the scoring weights (the spec's "Who" column). */
export const scoreRoles = {
  read: Roles.any,
  heatmap: Roles.any,
  config: Roles.admin,
} as const;
