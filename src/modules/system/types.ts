import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import type { ScheduledJob, SchedulerStatus } from '../../jobs/types.ts';
import type { Health } from './service.ts';

/** Recurring jobs the scheduler runs (a dozen or so). */
const SCHEDULED_JOB_MAX = 50;

const DatabaseHealthType = builder.objectRef<Health['database']>('DatabaseHealth').implement({
  fields: (t) => ({
    status: t.exposeString('status', { description: 'ok or error.' }),
    engine: t.exposeString('engine', {
      nullable: true,
      description: 'postgresql, or pglite in the embedded mode (admins only; null for others).',
    }),
  }),
});

const RedisHealthType = builder.objectRef<Health['redis']>('RedisHealth').implement({
  fields: (t) => ({
    status: t.exposeString('status', { description: 'ok, error, or disabled when no REDIS_URL is configured.' }),
  }),
});

const StorageHealthType = builder.objectRef<Health['storage']>('StorageHealth').implement({
  fields: (t) => ({
    status: t.exposeString('status', { description: 'ok or error.' }),
    driver: t.exposeString('driver', {
      nullable: true,
      description:
        'Where evidence files are kept: disk (under DATA_DIR) or s3 (S3-compatible object storage) (admins only; null for others).',
    }),
  }),
});

const WorkersHealthType = builder.objectRef<Health['workers']>('WorkersHealth').implement({
  fields: (t) => ({
    status: t.exposeString('status', {
      description:
        'ok when a process works the job queues; none when queued jobs wait for one (start `npm run worker`); unknown when Redis is unreachable.',
    }),
    count: t.exposeInt('count', {
      nullable: true,
      description: 'How many processes work the queues (admins only; null for others or when unknown).',
    }),
  }),
});

export const HealthType = builder.objectRef<Health>('Health').implement({
  description: 'Whether the service and its dependencies answer.',
  fields: (t) => ({
    status: t.exposeString('status', { description: 'ok, or degraded when the database or a configured Redis fails.' }),
    database: t.field({ type: DatabaseHealthType, resolve: (health) => health.database }),
    redis: t.field({ type: RedisHealthType, resolve: (health) => health.redis }),
    storage: t.field({ type: StorageHealthType, resolve: (health) => health.storage }),
    workers: t.field({ type: WorkersHealthType, resolve: (health) => health.workers }),
  }),
});

const ScheduledJobType = builder.objectRef<ScheduledJob>('ScheduledJob').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name', { description: 'What the job does.' }),
    nextRunTime: t.field({ type: 'DateTime', nullable: true, resolve: (job) => job.next_run_time }),
  }),
});

export const SchedulerStatusType = builder.objectRef<SchedulerStatus>('SchedulerStatus').implement({
  description: 'The recurring background jobs and when they run next.',
  fields: (t) => ({
    running: t.exposeBoolean('running', { description: 'Whether this process has started its scheduler.' }),
    workers: t.exposeInt('workers', {
      nullable: true,
      description: 'How many processes work the job queues now (0: jobs wait for a worker); null when Redis is unreachable.',
    }),
    jobs: t.field({ type: [ScheduledJobType], complexity: cappedListCost(SCHEDULED_JOB_MAX), resolve: (status) => status.jobs }),
  }),
});
