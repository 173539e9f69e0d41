import { Roles } from '../../auth/roles.ts';

/** Who may do what with detection rules (the spec's "Who" column). */
export const detectionRuleRoles = {
  read: Roles.any,
  create: Roles.blueLead,
  update: Roles.blueLead,
  delete: Roles.blueLead,
  evaluate: Roles.blue,
} as const;
