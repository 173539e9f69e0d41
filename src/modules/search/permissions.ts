import { Roles } from '../../auth/roles.ts';

/** Every role reads techniques, tests and playbooks, so every role may search them. */
export const searchRoles = { read: Roles.any } as const;
