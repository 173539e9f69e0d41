import { Roles } from '../../auth/roles.ts';

/** Every signed-in role reads and marks its own notifications (a user sees only theirs). */
export const notificationRoles = { own: Roles.any } as const;
