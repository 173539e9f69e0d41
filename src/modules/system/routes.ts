import type { Route } from '../../../rest-adapter/types.ts';
import { systemRoles } from './permissions.ts';
import type { Health } from './service.ts';

const HEALTH = 'query { health { status database { status engine } redis { status } storage { status driver } } }';

export const systemRoutes: Route[] = [
  {
    method: 'GET',
    path: '/system/health',
    tag: 'System',
    summary: 'Health check: 200 with status ok, or 503 with status degraded when the database or a configured Redis fails',
    roles: systemRoles.health,
    documents: [HEALTH],
    async handle(_req, res, { execute }) {
      const health = (await execute(HEALTH, {})) as Health;
      res.status(health.status === 'ok' ? 200 : 503).json(health);
    },
  },
  {
    method: 'GET',
    path: '/system/scheduler-status',
    tag: 'System',
    summary: 'Scheduler status: running, and the recurring jobs with their next run time',
    roles: systemRoles.scheduler,
    document: 'query { schedulerStatus { running jobs { id name next_run_time: nextRunTime } } }',
  },
];
