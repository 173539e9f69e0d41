import type { Prisma } from '../../db/client.ts';
import { inTransaction, type Actor, type UnitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, NotFoundError } from '../../errors.ts';
import type { DataSource, DataSourceKind } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { QueueName } from '../../jobs/types.ts';
import { SourceUnavailableError } from '../../sources/location.ts';
import type { ImportReport } from '../../sources/importer.ts';
import { importers } from './importers.ts';
import { claimable, leaseUntil, startHeartbeat } from './lease.ts';
import { addCommitted, committedRecorder, type Committed } from './progress.ts';
import { getDataSource, SYNC_JOB } from './service.ts';

export type SyncTrigger = 'manual' | 'schedule' | 'api';

const MAX_ERROR_LENGTH = 2_000;

export class SyncInProgressError extends DomainError {
  override readonly status = 409;
  override readonly code = 'SYNC_IN_PROGRESS';
  constructor(name: string) {
    super(`A sync of ${name} is already queued or running; wait for it to finish`);
  }
}

/**
 * What a failed sync records (on the source, its run and the audit log): the reason a source error gives in our
 * own words, never another error's message, which may quote the source's contents or an internal server's answer.
 */
const recordedFailure = (error: unknown) =>
  (error instanceof SourceUnavailableError ? error.message : 'The import failed; the server log has the details').slice(
    0,
    MAX_ERROR_LENGTH,
  );

/** Runs of this source left `running` by a process that died, and what their committed batches wrote. */
export interface Resumed {
  run_ids: string[];
  committed: Committed;
  /** When the earliest of them started. */
  since: Date;
}

/**
 * Syncs one source now, in this process: takes the source (409 SYNC_IN_PROGRESS while another sync holds its
 * lease), runs its importer with a heartbeat renewing the lease, and records the outcome on the source, in a run
 * and in the audit log. Every batch the importer commits is audited and counted on the run as it commits; a run
 * whose process died is closed as interrupted by the next one, which completes the work (importers are
 * idempotent: they write only what differs) and reports what the interrupted run wrote as `resumed`.
 */
export async function runSync(
  services: Services,
  source: DataSource,
  actor: Actor,
  trigger: SyncTrigger,
  queuedRunId?: string,
): Promise<ImportReport & { resumed?: Resumed }> {
  const startedAt = new Date();
  const claim = await inTransaction(services, actor, async (uow) => {
    const claimed = await uow.tx.dataSource.updateMany({
      where: claimable(source.id, ['running']),
      data: { status: 'running', lastRunAt: startedAt, leaseExpiresAt: leaseUntil(services) },
    });
    if (!claimed.count) {
      if (queuedRunId) {
        // Only a run still queued: a job redelivered after its worker died finds its own run running, left for
        // the sync that takes the source over once the lease expires.
        await uow.tx.dataSourceRun.updateMany({
          where: { id: queuedRunId, status: 'queued' },
          data: { status: 'failed', finishedAt: startedAt, error: 'Not run: another sync of this source was running' },
        });
      }
      return null;
    }
    const run = queuedRunId
      ? await uow.tx.dataSourceRun.update({ where: { id: queuedRunId }, data: { status: 'running', startedAt } })
      : await uow.tx.dataSourceRun.create({
          data: { dataSourceId: source.id, trigger, status: 'running', startedAt, triggeredById: actor.userId },
        });
    return { run, resumed: await closeInterrupted(uow, source, run.id, startedAt) };
  });
  if (!claim) throw new SyncInProgressError(source.name);
  const { run, resumed } = claim;

  const log = services.log.child({ dataSource: source.kind, run: run.id });
  if (resumed) log.warn({ interrupted: resumed.run_ids }, 'completing a sync whose process died');
  const stopHeartbeat = startHeartbeat(services, source.id, run.id, log);
  let report: ImportReport;
  try {
    report = await importers[source.kind]({
      services,
      location: source.location,
      actor: { ...actor, syncRun: committedRecorder(run.id) },
      log,
    });
  } catch (error) {
    stopHeartbeat();
    log.warn({ err: error, location: source.location }, 'data source sync failed');
    await finish(services, actor, source, run.id, trigger, { status: 'failed', error: recordedFailure(error) });
    throw error;
  }
  stopHeartbeat();
  await finish(services, actor, source, run.id, trigger, { status: 'succeeded', report, resumed });
  log.info({ counts: report.counts }, 'data source synced');
  return resumed ? { ...report, resumed } : report;
}

/**
 * Closes the runs of `source` still marked running (their process died: the source's lease had expired) as failed
 * with the reason, each with an audit entry of what it had committed. Returns them, or null when there were none.
 */
async function closeInterrupted(uow: UnitOfWork, source: DataSource, runId: string, now: Date): Promise<Resumed | null> {
  const interrupted = await uow.tx.dataSourceRun.findMany({
    where: { dataSourceId: source.id, status: 'running', id: { not: runId } },
    select: { id: true, committed: true, startedAt: true },
    orderBy: { startedAt: 'asc' },
  });
  if (!interrupted.length) return null;
  let committed: Committed = {};
  for (const stale of interrupted) {
    const error = `Interrupted: its process stopped renewing the sync lease; run ${runId} took the source over`;
    await uow.tx.dataSourceRun.update({ where: { id: stale.id }, data: { status: 'failed', finishedAt: now, error } });
    await uow.audit({
      action: 'sync_data_source',
      entityType: 'data_source',
      entityId: source.id,
      details: {
        kind: source.kind,
        status: 'interrupted',
        run_id: stale.id,
        completed_by: runId,
        committed: stale.committed as Prisma.InputJsonObject,
      },
    });
    committed = addCommitted(committed, stale.committed as Committed);
  }
  return { run_ids: interrupted.map((stale) => stale.id), committed, since: interrupted[0].startedAt };
}

type Outcome = { status: 'succeeded'; report: ImportReport; resumed: Resumed | null } | { status: 'failed'; error: string };

async function finish(services: Services, actor: Actor, source: DataSource, runId: string, trigger: SyncTrigger, outcome: Outcome) {
  const finishedAt = new Date();
  const resumed =
    outcome.status === 'succeeded' && outcome.resumed
      ? { resumed: { run_ids: outcome.resumed.run_ids, committed: outcome.resumed.committed } }
      : {};
  const changes = outcome.status === 'succeeded' ? ({ ...outcome.report.changes, ...resumed } as Prisma.InputJsonObject) : {};
  const error = outcome.status === 'failed' ? outcome.error : null;
  await inTransaction(services, actor, async (uow) => {
    await uow.tx.dataSourceRun.update({ where: { id: runId }, data: { status: outcome.status, finishedAt, changes, error } });
    await uow.tx.dataSource.update({
      where: { id: source.id },
      data:
        outcome.status === 'succeeded'
          ? { status: 'succeeded', error: null, lastSuccessAt: finishedAt, itemCounts: outcome.report.counts, leaseExpiresAt: null }
          : { status: 'failed', error, leaseExpiresAt: null },
    });
    await uow.audit({
      action: 'sync_data_source',
      entityType: 'data_source',
      entityId: source.id,
      details: { kind: source.kind, trigger, status: outcome.status, run_id: runId, ...(error ? { error } : { changes }) },
    });
    uow.emit('data_source.synced', { dataSourceId: source.id, kind: source.kind, status: outcome.status, changes });
    if (outcome.status === 'succeeded' && outcome.resumed) await announceResumedCoverage(uow, outcome.resumed);
  });
}

/**
 * The coverage event of an interrupted run is published after its batch commits, so its process may have died in
 * between: the run that completes it announces every catalog technique written since the interrupted run began.
 */
async function announceResumedCoverage(uow: UnitOfWork, resumed: Resumed): Promise<void> {
  const techniques = await uow.tx.technique.findMany({
    where: { isCustom: false, updatedAt: { gte: resumed.since } },
    select: { id: true },
  });
  if (techniques.length)
    uow.emit('coverage.changed', { techniqueIds: techniques.map((technique) => technique.id), reason: 'catalog_sync_resumed' });
}

/**
 * Runs the importer of one data source against its configured location, now, in this process, with run
 * records and status bookkeeping (see runSync). Returns what the import did.
 */
export async function syncDataSource(
  services: Services,
  kind: DataSourceKind,
  actor: Actor,
  trigger: SyncTrigger = 'manual',
): Promise<ImportReport> {
  const source = await services.prisma.dataSource.findUnique({ where: { kind } });
  if (!source) throw new NotFoundError('Data source', kind);
  return runSync(services, source, actor, trigger);
}

function queuedDetail(workers: number | null): string {
  if (workers === null) return 'Sync queued; whether a worker is running cannot be told now (Redis does not answer)';
  if (workers === 0) return 'Sync queued, but no worker is running: the job waits until a worker process starts (npm run worker)';
  return 'Sync queued; a worker will run it';
}

/**
 * Queues a manual sync as a background job: the source turns `queued` with a queued run (409 SYNC_IN_PROGRESS
 * while another is queued or running). Returns the source, the run, the job id, and how many workers work the
 * sync queue with a detail in words: with Redis and no worker, the job waits.
 */
export async function requestSync(services: Services, actor: Actor, idOrKind: string) {
  const before = await getDataSource(services, idOrKind);
  let jobId = '';
  const { dataSource, run } = await inTransaction(services, actor, async (uow) => {
    services.jobs.assertAvailable();
    const claimed = await uow.tx.dataSource.updateMany({
      where: claimable(before.id, ['queued', 'running']),
      data: { status: 'queued', leaseExpiresAt: null },
    });
    if (!claimed.count) throw new SyncInProgressError(before.name);
    const run = await uow.tx.dataSourceRun.create({
      data: { dataSourceId: before.id, trigger: 'manual', status: 'queued', triggeredById: actor.userId },
    });
    await uow.audit({
      action: 'request_data_source_sync',
      entityType: 'data_source',
      entityId: before.id,
      details: { kind: before.kind, run_id: run.id },
    });
    uow.afterCommit(async () => {
      jobId = await enqueueOrRelease(services, actor, before, run.id);
    });
    return { dataSource: await uow.tx.dataSource.findUniqueOrThrow({ where: { id: before.id } }), run };
  });
  const workers = await services.jobs.workerCount(QueueName.catalog);
  return { dataSource, run, jobId, workers, detail: queuedDetail(workers) };
}

/** Queues the claimed run; when the queue refuses it, the run fails and the source is released again. */
async function enqueueOrRelease(services: Services, actor: Actor, source: DataSource, runId: string): Promise<string> {
  try {
    return await services.jobs.enqueue(SYNC_JOB, {
      dataSourceId: source.id,
      kind: source.kind,
      runId,
      userId: actor.userId,
      trigger: 'manual',
    });
  } catch (error) {
    await services.prisma.$transaction([
      services.prisma.dataSourceRun.update({
        where: { id: runId },
        data: { status: 'failed', finishedAt: new Date(), error: 'Could not be queued; the server log has the details' },
      }),
      services.prisma.dataSource.update({ where: { id: source.id }, data: { status: source.status } }),
    ]);
    throw error;
  }
}
