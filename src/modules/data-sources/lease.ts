import type { Prisma } from '../../db/client.ts';
import type { Logger } from '../../logger.ts';
import type { Services } from '../../services.ts';

/**
 * A `queued` sync whose job never started (its in-process queue died with its process) may be replaced after this
 * long; a `running` one is judged by its lease instead.
 */
export const QUEUED_STALE_AFTER_MS = 60 * 60_000;

export const leaseUntil = (services: Services) => new Date(Date.now() + services.config.SYNC_LEASE);

/**
 * Sources a new sync may claim: not busy, or running under a lease that expired (its process stopped renewing it),
 * or left busy without a lease (written before leases existed) for longer than a sync can take.
 */
export function claimable(id: string, busy: ('queued' | 'running')[]): Prisma.DataSourceWhereInput {
  const now = new Date();
  const staleBefore = new Date(now.getTime() - QUEUED_STALE_AFTER_MS);
  return {
    id,
    OR: [
      { status: { notIn: busy } },
      { status: 'running', leaseExpiresAt: { lt: now } },
      { leaseExpiresAt: null, updatedAt: { lt: staleBefore } },
    ],
  };
}

/**
 * Renews the lease of a running sync every SYNC_HEARTBEAT until stopped. A renewal that finds the run no longer
 * holding the source (another sync took over after a stall longer than the lease) is logged: the run goes on,
 * its writes are idempotent and audited, and the run that took over reports its own.
 */
export function startHeartbeat(services: Services, dataSourceId: string, runId: string, log: Logger): () => void {
  const renew = async () => {
    try {
      const renewed = await services.prisma.dataSource.updateMany({
        where: { id: dataSourceId, status: 'running', runs: { some: { id: runId, status: 'running' } } },
        data: { leaseExpiresAt: leaseUntil(services) },
      });
      if (!renewed.count) log.warn('sync lease lost: another sync took this source over');
    } catch (error) {
      log.warn({ err: error }, 'sync lease not renewed');
    }
  };
  const timer = setInterval(() => void renew(), services.config.SYNC_HEARTBEAT);
  timer.unref();
  return () => clearInterval(timer);
}
