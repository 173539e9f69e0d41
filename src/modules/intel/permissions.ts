import { Roles } from '../../auth/roles.ts';

/** Who may run the intel scan (spec: POST /system/run-intel-scan is admin only) and read its findings. */
export const intelRoles = {
  scan: Roles.admin,
  readFindings: Roles.any,
} as const;
