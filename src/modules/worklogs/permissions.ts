import { grants, type Principal } from '../../auth/access.ts';
import { Roles } from '../../auth/roles.ts';
import { NotFoundError } from '../../errors.ts';

/** Everyone keeps their own worklogs; admins read and change everyone's (through an API key: an admin-scope one). */
export const worklogRoles = {
  own: Roles.any,
  others: Roles.admin,
} as const;

/** Whether the caller sees every user's entries rather than only their own. */
export const readsAllWorklogs = (principal: Principal): boolean => grants(principal, { roles: worklogRoles.others });

/** Someone else's entry does not exist for a non-admin: 404, not 403, so ids of others' entries reveal nothing. */
export function assertOwnWorklog(principal: Principal, entry: { id: string; userId: string }): void {
  if (entry.userId !== principal.userId && !readsAllWorklogs(principal)) throw new NotFoundError('Worklog', entry.id);
}
