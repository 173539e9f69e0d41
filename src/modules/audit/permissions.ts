import { Roles } from '../../auth/roles.ts';

/** Who may read the audit log (the spec's "Audit logs (A only)"). */
export const auditRoles = {
  read: Roles.admin,
} as const;
