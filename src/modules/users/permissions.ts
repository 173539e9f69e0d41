import type { Principal } from '../../auth/access.ts';
import { Roles, type Role } from '../../auth/roles.ts';

/** Who may do what with user accounts (the spec's "Who" column). */
export const userRoles = {
  list: Roles.admin,
  read: Roles.admin,
  create: Roles.admin,
  update: Roles.admin,
  deactivate: Roles.admin,
  self: Roles.any,
} as const;

/** Roles that may read a user's preferences: anyone for their own account, otherwise admins only. */
export const preferencesReaders = (principal: Principal | null, userId: string): readonly Role[] =>
  principal?.userId === userId ? Roles.any : Roles.admin;
