import { Roles } from '../../auth/roles.ts';

/** The spec: reads for every role, changes for blue leads and admins. */
export const lifecycleRoles = { read: Roles.any, write: Roles.blueLead } as const;
