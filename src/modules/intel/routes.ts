import type { Route } from '../../../rest-adapter/types.ts';
import { intelRoles } from './permissions.ts';

export const intelRoutes: Route[] = [
  {
    method: 'POST',
    path: '/system/run-intel-scan',
    expensive: true,
    tag: 'System',
    summary: 'Run the intel scan now: message and new_items (the first scan is a baseline and reports 0)',
    roles: intelRoles.scan,
    document: 'mutation { runIntelScan { message newItems baseline } }',
  },
];
