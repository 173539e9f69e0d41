import { z } from 'zod';
import type { Principal } from '../../auth/access.ts';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NoRemediationError, NotFoundError, TrackerNotConfiguredError } from '../../errors.ts';
import { TrackerLinkStatus, TrackerSubject, type RemediationStatus } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { page, parseInput, uuid } from '../../validation.ts';

export const ISSUE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

const createSchema = z.object({
  subjectType: z.enum(TrackerSubject, { error: `must be one of ${Object.keys(TrackerSubject).join(', ')}` }),
  subjectId: uuid,
  connectionId: uuid.nullish(),
});
const listSchema = page(ISSUE_PAGE.defaultLimit, ISSUE_PAGE.maxLimit).extend({
  status: z.enum(TrackerLinkStatus).nullish(),
  connectionId: uuid.nullish(),
});

type Query = { select?: Prisma.TrackerLinkSelect };

/** Results that leave a gap to remediate. */
const GAP_RESULTS = new Set(['not_detected', 'partially_detected']);

export async function listIssues(services: Services, filter: unknown, query: Query = {}) {
  const { offset, limit, status, connectionId } = parseInput(listSchema, filter);
  return services.prisma.trackerLink.findMany({
    ...query,
    where: { ...(status ? { status } : {}), ...(connectionId ? { connectionId } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip: offset,
    take: limit,
  });
}

export async function getIssue(services: Services, id: string, query: Query = {}) {
  const link = await services.prisma.trackerLink.findUnique({ ...query, where: { id } });
  if (!link) throw new NotFoundError('Tracker issue', id);
  return link;
}

/** Whether a test has a remediation an issue can track: rejected, or a result that leaves a gap. */
export const hasRemediation = (test: { state: string; detectionResult: string | null }) =>
  test.state === 'rejected' || GAP_RESULTS.has(test.detectionResult ?? '');

/** The subject must exist and have something to remediate; answers the test the link is about. */
async function checkSubject(services: Services, subjectType: TrackerSubject, subjectId: string): Promise<string | null> {
  if (subjectType === 'alert') {
    const alert = await services.prisma.alertInstance.findUnique({ where: { id: subjectId }, select: { id: true } });
    if (!alert) throw new NotFoundError('Alert', subjectId);
    return null;
  }
  if (subjectType === 'revalidation') {
    const entry = await services.prisma.revalidationEntry.findUnique({ where: { id: subjectId }, select: { id: true } });
    if (!entry) throw new NotFoundError('Revalidation entry', subjectId);
    return null;
  }
  const test = await services.prisma.test.findUnique({ where: { id: subjectId }, select: { state: true, detectionResult: true } });
  if (!test) throw new NotFoundError('Test', subjectId);
  if (!hasRemediation(test))
    throw new NoRemediationError(
      'Only a test that was rejected or whose result is not_detected or partially_detected has a remediation to track',
    );
  return subjectId;
}

/** The connection new issues go to: the one named, or the oldest active one. */
async function connectionFor(services: Services, connectionId: string | null | undefined) {
  const connection = await services.prisma.trackerConnection.findFirst({
    where: { isActive: true, ...(connectionId ? { id: connectionId } : {}) },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  if (!connection) {
    if (connectionId) throw new NotFoundError('Tracker connection', connectionId);
    throw new TrackerNotConfiguredError();
  }
  return connection;
}

/** Sets the remediation status of a link's test (with the completion stamp the KPIs read), in the caller's transaction. */
export async function setRemediation(uow: UnitOfWork, testId: string | null, status: RemediationStatus): Promise<void> {
  if (!testId) return;
  const test = await uow.tx.test.findUnique({ where: { id: testId }, select: { remediationStatus: true, campaignId: true } });
  if (!test || test.remediationStatus === status) return;
  await uow.tx.test.update({
    where: { id: testId },
    data: { remediationStatus: status, remediationCompletedAt: status === 'completed' ? new Date() : null, version: { increment: 1 } },
  });
  await uow.tx.testEvent.create({
    data: {
      testId,
      kind: 'remediation_updated',
      details: { remediation_status: status, source: 'tracker' },
      actorId: uow.actor.userId,
      actorName: uow.actor.username,
    },
  });
  uow.emit('test.changed', { testId, campaignId: test.campaignId, change: 'remediation' });
}

/**
 * Opens the tracker issue of a test's remediation, an alert or a revalidation-queue entry, once: a second call answers the link that
 * exists (`created` false). The link is written first (status pending); filing it with the tracker follows the
 * commit, so an unreachable tracker leaves a pending link that the sync files later.
 */
export async function createIssue(services: Services, principal: Principal, input: unknown, file: (linkId: string) => Promise<void>) {
  const { subjectType, subjectId, connectionId } = parseInput(createSchema, input);
  const existing = await services.prisma.trackerLink.findUnique({
    where: { subjectType_subjectId: { subjectType, subjectId } },
    select: { id: true },
  });
  if (existing) return { created: false, linkId: existing.id };
  const testId = await checkSubject(services, subjectType, subjectId);
  const connection = await connectionFor(services, connectionId);
  const created = await inTransaction(services, principal, async (uow) => {
    const { count } = await uow.tx.trackerLink.createMany({
      data: [{ connectionId: connection.id, subjectType, subjectId, testId, createdById: principal.userId }],
      skipDuplicates: true,
    });
    const link = await uow.tx.trackerLink.findUniqueOrThrow({
      where: { subjectType_subjectId: { subjectType, subjectId } },
      select: { id: true },
    });
    if (!count) return { created: false, linkId: link.id };
    const test = testId ? await uow.tx.test.findUnique({ where: { id: testId }, select: { remediationStatus: true } }) : null;
    if (test && test.remediationStatus === null) await setRemediation(uow, testId, 'pending');
    await uow.audit({
      action: 'create_tracker_issue',
      entityType: 'tracker_issue',
      entityId: link.id,
      details: { subject_type: subjectType, subject_id: subjectId, connection_id: connection.id },
    });
    return { created: true, linkId: link.id };
  });
  if (created.created) await file(created.linkId);
  return created;
}
