import type { Route } from '../../../rest-adapter/types.ts';
import { catalogRoles } from './permissions.ts';

export const catalogRoutes: Route[] = [
  {
    method: 'POST',
    path: '/system/sync-ttp',
    expensive: true,
    tag: 'System',
    summary: 'Run the ATT&CK catalog sync now; returns message, new and updated (techniques and sub-techniques)',
    roles: catalogRoles.sync,
    document: 'mutation { syncTtp { message new updated } }',
  },
];
