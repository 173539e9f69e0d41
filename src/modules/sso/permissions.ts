import { Roles } from '../../auth/roles.ts';

/** Everyone signed in may see whether single sign-on is on; only admins see and change its settings and links. */
export const ssoRoles = {
  status: Roles.any,
  config: Roles.admin,
  link: Roles.admin,
  /** Anyone signed in with a password may link their own account (`startLink` decides who may). */
  selfLink: Roles.any,
} as const;
