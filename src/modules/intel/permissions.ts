import { Roles } from '../../auth/roles.ts';

/** Who may run the intel scan (spec: POST /system/run-intel-scan is admin only) and read its findings. */
export const intelRoles = {
  scan: Roles.admin,
  readFindings: Roles.any,
} as const;

/** Roles told about new findings: the leads who decide what to test next. */
export const FINDING_RECIPIENT_ROLES = ['red_lead', 'blue_lead'] as const;
