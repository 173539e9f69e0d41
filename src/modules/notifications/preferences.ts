import { z } from 'zod';
import { ALL_ROLES, type Role } from '../../auth/roles.ts';
import { type Channel, channelsOf, NOTICES, type Notice, type NoticeKey } from './notices.ts';

/** Flat preference keys: `<channel>_<notice key>`, e.g. `in_app_test_validated`, plus the UI theme. */
export const preferenceKey = (channel: Channel, key: NoticeKey) => `${channel}_${key}`;

/** The notices a role can receive: those with an audience that lists the role. */
export const noticesOf = (role: Role): Notice[] =>
  (NOTICES as readonly Notice[]).filter((row) => row.to.some((audience) => audience.roles.includes(role)));

/** A role's toggles, derived from the notice table: one per notice it can receive and channel that notice uses. */
export const togglesOf = (role: Role): string[] =>
  noticesOf(role).flatMap((row) => channelsOf(row).map((channel) => preferenceKey(channel, row.key as NoticeKey)));

const theme = z.enum(['system', 'light', 'dark']);

function schemasOf(role: Role) {
  const fields = { ...Object.fromEntries(togglesOf(role).map((key) => [key, z.boolean()])), theme };
  return {
    /** What a client of this role may send: keys of toggles the role does not have are refused. */
    input: z.strictObject(fields).partial(),
    /** What may be stored: other keys (a former role's, a notice that no longer exists) are ignored, not voiding the rest. */
    stored: z.object(fields).partial(),
  };
}

const SCHEMAS = Object.fromEntries(ALL_ROLES.map((role) => [role, schemasOf(role)])) as Record<Role, ReturnType<typeof schemasOf>>;

export type Preferences = Record<string, boolean | string>;

export const preferencesSchema = (role: Role) => SCHEMAS[role].input;

/** Every toggle of the role on, system theme: what a user has until they change something. */
export const defaultPreferences = (role: Role): Preferences => ({
  ...Object.fromEntries(togglesOf(role).map((key) => [key, true])),
  theme: 'system',
});

/** A user's stored preferences merged over their role's defaults: exactly the role's toggles and the theme. */
export function effectivePreferences(stored: unknown, role: Role): Preferences {
  const parsed = SCHEMAS[role].stored.safeParse(stored ?? {});
  return { ...defaultPreferences(role), ...(parsed.success ? (parsed.data as Preferences) : {}) };
}

/** Whether a user wants this notice on this channel: on unless stored off. */
export function wants(stored: unknown, channel: Channel, key: NoticeKey): boolean {
  return (stored as Record<string, unknown> | null)?.[preferenceKey(channel, key)] !== false;
}
