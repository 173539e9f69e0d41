import { Role } from '../generated/prisma/enums.ts';

export { Role };

export const ALL_ROLES = Object.values(Role) as readonly Role[];

/** Role sets named as in the spec's "Who" columns. */
export const Roles = {
  any: ALL_ROLES,
  admin: [Role.admin],
  leads: [Role.admin, Role.red_lead, Role.blue_lead],
  red: [Role.admin, Role.red_lead, Role.red_tech],
  blue: [Role.admin, Role.blue_lead, Role.blue_tech],
  redLead: [Role.admin, Role.red_lead],
  blueLead: [Role.admin, Role.blue_lead],
  leadsAndViewer: [Role.admin, Role.red_lead, Role.blue_lead, Role.viewer],
  allButViewer: ALL_ROLES.filter((role) => role !== Role.viewer),
} as const satisfies Record<string, readonly Role[]>;

export const ROLE_ABBREVIATIONS: Record<Role, string> = {
  admin: 'A',
  red_lead: 'RL',
  blue_lead: 'BL',
  red_tech: 'RT',
  blue_tech: 'BT',
  viewer: 'V',
};
