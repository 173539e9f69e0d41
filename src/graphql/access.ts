import type { Role } from '../auth/roles.ts';

/** The scope-auth option that admits exactly these roles. */
export const allow = (roles: readonly Role[]) => ({ access: { roles } }) as const;

/** Admits any signed-in principal, even one that still has to change its password. */
export const signedIn = { access: { roles: 'signed-in' } } as const;

export const anyone = { access: { roles: 'public' } } as const;
