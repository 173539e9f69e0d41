import { Roles } from '../../auth/roles.ts';
import { testRoles } from '../test-runs/permissions.ts';

/**
 * Who may do what with attack paths and their executions (the spec's "Who" column: every role but viewer
 * writes, leads delete and abort). Execution transitions carry their roles in the transition table.
 */
export const attackPathRoles = {
  read: Roles.any,
  write: Roles.allButViewer,
  delete: Roles.leads,
  execute: Roles.allButViewer,
  recordOutcome: Roles.allButViewer,
  /** Creating tests from the steps' templates: whoever may create tests. */
  createTests: testRoles.create,
} as const;
