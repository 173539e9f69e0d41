import { Roles } from '../../auth/roles.ts';

/** The spec's Who columns for /alerts. */
export const alertRoles = { read: Roles.any, manage: Roles.leads, deleteRule: Roles.admin } as const;
