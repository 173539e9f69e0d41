import { Roles } from '../../auth/roles.ts';

/** Who may do what with playbooks and lessons learned (the spec's "Who" column): anyone reads, leads and admins write. */
export const knowledgeRoles = {
  read: Roles.any,
  write: Roles.leads,
} as const;
