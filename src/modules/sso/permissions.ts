import { Roles } from '../../auth/roles.ts';

/** Everyone signed in may see whether single sign-on is on; only admins see and change its settings. */
export const ssoRoles = {
  status: Roles.any,
  config: Roles.admin,
} as const;
