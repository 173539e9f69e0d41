import type { AccessRule, Principal } from '../../auth/access.ts';
import { Role, Roles } from '../../auth/roles.ts';

/** Who may do what with user accounts (the spec's "Who" column). */
export const userRoles = {
  list: Roles.admin,
  read: Roles.admin,
  create: Roles.admin,
  update: Roles.admin,
  deactivate: Roles.admin,
  self: Roles.any,
  listAssignable: Roles.leads,
} as const;

/** The roles that work tests, so the roles a test may be assigned to. */
export const ASSIGNABLE_ROLES = [Role.red_lead, Role.blue_lead, Role.red_tech, Role.blue_tech] as const;

/** What anyone may read of another user: enough to name them, nothing about their account. */
export const PUBLIC_USER_FIELDS = ['id', 'username', 'displayName'] as const;

/** What leads read of the users they may assign a test to: the public fields and the role, which tells the side. */
export const ASSIGNABLE_USER_FIELDS = [...PUBLIC_USER_FIELDS, 'role'] as const;

/**
 * Who may read a user's other fields (e-mail, role, active and password flags, tracker account, preferences,
 * timestamps): the user themself, even with a password change pending, and admins.
 */
export const privateUserFieldAccess = (principal: Principal | null, userId: string): AccessRule =>
  principal?.userId === userId ? { roles: 'signed-in' } : { roles: Roles.admin };
