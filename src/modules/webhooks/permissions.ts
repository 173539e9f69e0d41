import { Roles } from '../../auth/roles.ts';

/** Webhooks are configured by admins only (the spec's "Who" column). */
export const webhookRoles = { manage: Roles.admin } as const;
