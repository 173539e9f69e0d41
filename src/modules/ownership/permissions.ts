import { Roles } from '../../auth/roles.ts';

/** The spec's Who columns for /ownership. */
export const ownershipRoles = {
  read: Roles.any,
  assign: Roles.leads,
  createAsset: Roles.blueLead,
  queue: Roles.blueLead,
} as const;
