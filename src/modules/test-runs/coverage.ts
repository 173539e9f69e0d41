import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { CoverageStatus, DetectionResult } from '../../generated/prisma/enums.ts';

/** What the latest validated test of a technique says about its coverage. */
export const COVERAGE_BY_RESULT: Record<DetectionResult, CoverageStatus> = {
  detected: 'validated',
  partially_detected: 'partial',
  not_detected: 'not_covered',
};

/**
 * Recomputes a technique's status_global from its tests, inside the caller's transaction:
 * the latest validated test (by decidedAt) decides; without one, any test past draft means in_progress;
 * otherwise not_evaluated. The technique row is locked first so that concurrent changes to two tests of
 * the same technique cannot overwrite each other's result. Publishes coverage.changed when the status moves.
 */
export async function recomputeCoverage(uow: UnitOfWork, techniqueId: string, reason: string): Promise<CoverageStatus> {
  const [technique] = await uow.tx.$queryRaw<{ status_global: CoverageStatus }[]>`
    SELECT status_global FROM techniques WHERE id = ${techniqueId}::uuid FOR NO KEY UPDATE`;
  const status = await coverageOf(uow, techniqueId);
  if (technique && technique.status_global !== status) {
    await uow.tx.technique.update({ where: { id: techniqueId }, data: { statusGlobal: status } });
    uow.emit('coverage.changed', { techniqueIds: [techniqueId], reason });
  }
  return status;
}

async function coverageOf(uow: UnitOfWork, techniqueId: string): Promise<CoverageStatus> {
  const latest = await uow.tx.test.findFirst({
    where: { techniqueId, state: 'validated', detectionResult: { not: null } },
    orderBy: [{ decidedAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }, { id: 'desc' }],
    select: { detectionResult: true },
  });
  if (latest?.detectionResult) return COVERAGE_BY_RESULT[latest.detectionResult];
  const started = await uow.tx.test.findFirst({ where: { techniqueId, state: { not: 'draft' } }, select: { id: true } });
  return started ? 'in_progress' : 'not_evaluated';
}

/** Recomputes several techniques in a fixed order (so two transactions never lock them crosswise). */
export async function recomputeCoverageOf(uow: UnitOfWork, techniqueIds: Iterable<string>, reason: string): Promise<void> {
  for (const techniqueId of [...new Set(techniqueIds)].sort()) await recomputeCoverage(uow, techniqueId, reason);
}
