import type { Route } from '../../../rest-adapter/types.ts';
import { systemRoles } from './permissions.ts';
import type { Health } from './service.ts';

const HEALTH = 'query { health { status database { status engine } redis { status } storage { status driver } workers { status count } } }';

/** Drops the details an anonymous caller gets as null, so its answer holds status words only. */
const withoutNulls = (value: unknown): unknown =>
  value && typeof value === 'object'
    ? Object.fromEntries(
        Object.entries(value)
          .filter(([, inner]) => inner !== null)
          .map(([key, inner]) => [key, withoutNulls(inner)]),
      )
    : value;

export const systemRoutes: Route[] = [
  {
    method: 'GET',
    path: '/system/health',
    tag: 'System',
    summary:
      'Health check: 200 with status ok, or 503 with status degraded when the database or a configured Redis fails; ' +
      'status words of the database, Redis, storage and job workers, with the engine, driver and worker count for admins',
    roles: systemRoles.health,
    documents: [HEALTH],
    async handle(_req, res, { execute }) {
      const health = (await execute(HEALTH, {})) as Health;
      res.status(health.status === 'ok' ? 200 : 503).json(withoutNulls(health));
    },
  },
  {
    method: 'GET',
    path: '/system/scheduler-status',
    tag: 'System',
    roles: systemRoles.scheduler,
    summary: 'Scheduler status: running, how many processes work the queues, and the recurring jobs with their next run time',
    document: 'query { schedulerStatus { running workers jobs { id name nextRunTime } } }',
  },
];
