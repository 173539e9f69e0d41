import { Roles } from '../../auth/roles.ts';

/** Who may read the analytics (the spec's "Who" column: every role). */
export const analyticsRoles = { read: Roles.any } as const;
