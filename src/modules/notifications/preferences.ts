import { z } from 'zod';
import type { Role } from '../../auth/roles.ts';

/** Events a user can be notified about, the roles they concern, and whether each channel is on by default. */
export const NOTIFICATION_EVENTS = {
  test_execution_started: { roles: ['red_lead', 'red_tech', 'blue_lead', 'admin'], description: 'A test you created started execution' },
  test_ready_for_blue: { roles: ['blue_tech', 'blue_lead'], description: 'A test awaits blue-team evaluation' },
  test_ready_for_review: { roles: ['red_lead', 'blue_lead'], description: 'A test awaits lead validation' },
  test_validated: { roles: ['red_lead', 'blue_lead', 'red_tech', 'admin'], description: 'A test you created was validated' },
  test_rejected: { roles: ['red_lead', 'blue_lead', 'red_tech', 'admin'], description: 'A test you created was rejected' },
  campaign_completed: { roles: ['red_lead', 'blue_lead', 'admin', 'viewer'], description: 'A campaign completed' },
  new_techniques: { roles: ['red_lead', 'blue_lead', 'admin'], description: 'The catalog sync found new techniques' },
  webhook_disabled: { roles: ['admin'], description: 'A webhook was disabled after failing deliveries' },
  revalidation_needed: {
    roles: ['red_lead', 'blue_lead', 'red_tech', 'blue_tech', 'admin'],
    description: 'A technique you own entered the revalidation queue',
  },
  alert_fired: { roles: ['red_lead', 'blue_lead', 'admin'], description: 'An alert rule fired' },
  intel_findings: {
    roles: ['red_lead', 'blue_lead', 'admin'],
    description: 'The intel scan found threat actors newly using techniques not yet validated',
  },
} as const satisfies Record<string, { roles: readonly Role[]; description: string }>;

export type NotificationEvent = keyof typeof NOTIFICATION_EVENTS;
export const NOTIFICATION_EVENT_NAMES = Object.keys(NOTIFICATION_EVENTS) as NotificationEvent[];
export type Channel = 'in_app' | 'email';

/** Flat preference keys: `in_app_<event>` and `email_<event>` (two per event) plus the UI theme. */
export const preferenceKey = (channel: Channel, event: NotificationEvent) => `${channel}_${event}`;

const toggles = Object.fromEntries(
  NOTIFICATION_EVENT_NAMES.flatMap((event) => [
    [preferenceKey('in_app', event), z.boolean()],
    [preferenceKey('email', event), z.boolean()],
  ]),
) as Record<string, z.ZodBoolean>;

const preferenceFields = { ...toggles, theme: z.enum(['system', 'light', 'dark']) };
/** What a client may send: unknown keys are refused. */
export const preferencesSchema = z.strictObject(preferenceFields).partial();
/** What may be stored: keys of events that no longer exist are ignored rather than voiding the rest. */
const storedPreferencesSchema = z.object(preferenceFields).partial();
export type Preferences = z.infer<typeof preferencesSchema>;

/** Every toggle on, system theme: what a user has until they change something. */
export const DEFAULT_PREFERENCES: Required<Preferences> = {
  ...(Object.fromEntries(Object.keys(toggles).map((key) => [key, true])) as Record<string, boolean>),
  theme: 'system',
} as Required<Preferences>;

/** A user's stored preferences merged over the defaults. */
export function effectivePreferences(stored: unknown): Required<Preferences> {
  const parsed = storedPreferencesSchema.safeParse(stored ?? {});
  return { ...DEFAULT_PREFERENCES, ...(parsed.success ? parsed.data : {}) };
}

export function wants(stored: unknown, channel: Channel, event: NotificationEvent): boolean {
  return (effectivePreferences(stored) as Record<string, unknown>)[preferenceKey(channel, event)] !== false;
}
