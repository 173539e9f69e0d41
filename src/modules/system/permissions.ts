import { Roles } from '../../auth/roles.ts';

/** Who may call the system endpoints (the spec: "A only unless stated"; health is public). */
export const systemRoles = {
  health: 'public',
  scheduler: Roles.admin,
  email: Roles.admin,
} as const;
