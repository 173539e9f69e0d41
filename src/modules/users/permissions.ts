import type { AccessRule, Principal } from '../../auth/access.ts';
import { Roles } from '../../auth/roles.ts';

/** Who may do what with user accounts (the spec's "Who" column). */
export const userRoles = {
  list: Roles.admin,
  read: Roles.admin,
  create: Roles.admin,
  update: Roles.admin,
  deactivate: Roles.admin,
  self: Roles.any,
} as const;

/** What anyone may read of another user: enough to name them, nothing about their account. */
export const PUBLIC_USER_FIELDS = ['id', 'username', 'displayName'] as const;

/**
 * Who may read a user's other fields (e-mail, role, active and password flags, tracker account, preferences,
 * timestamps): the user themself, even with a password change pending, and admins.
 */
export const privateUserFieldAccess = (principal: Principal | null, userId: string): AccessRule =>
  principal?.userId === userId ? { roles: 'signed-in' } : { roles: Roles.admin };
