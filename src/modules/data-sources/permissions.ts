import { grants, type Principal } from '../../auth/access.ts';
import { Roles } from '../../auth/roles.ts';

/** Who may do what with data sources (the spec's "Who" column; listing is open to every signed-in user). */
export const dataSourceRoles = {
  read: Roles.any,
  update: Roles.admin,
  sync: Roles.admin,
  /** POST /system/sync-ttp (runs the attack_enterprise source): the System section is admin only. */
  syncTtp: Roles.admin,
  /** Why a sync failed names paths, hosts and status codes: only admins read it. */
  readFailure: Roles.admin,
} as const;

/** What a caller sees of a recorded sync error: the reason for admins, only that it failed for everyone else. */
export const visibleSyncError = (principal: Principal | null, recorded: string | null): string | null =>
  recorded === null || grants(principal, { roles: dataSourceRoles.readFailure }) ? recorded : 'failed';
