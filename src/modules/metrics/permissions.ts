import { Roles } from '../../auth/roles.ts';

/** Who may read metrics and dashboards (the spec's "Who" column: every signed-in role). */
export const metricsRoles = {
  read: Roles.any,
} as const;
