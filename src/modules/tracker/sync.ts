import { createHmac, timingSafeEqual } from 'node:crypto';
import { inTransaction, SYSTEM_ACTOR, type UnitOfWork } from '../../db/unit-of-work.ts';
import { NotFoundError, TrackerSignatureError } from '../../errors.ts';
import { queueRows } from '../../jobs/queue-rows.ts';
import type { Services } from '../../services.ts';
import { insertRetest } from '../test-runs/retests.ts';
import { clientFor, type IssueState, type TrackerClient } from './clients.ts';
import { secretsOf, trackerWebhookSecrets } from './connections.ts';
import { SubjectGoneError, TrackerError } from './http.ts';
import { draftOf } from './drafts.ts';
import { setRemediation } from './issues.ts';
import { trackerLinkLifecycle } from './lifecycle.ts';
import { fieldMappingSchema, remediationOf, statusMappingSchema } from './mapping.ts';
import { ANNOUNCED_SELECT, announceStatus, transition } from './transition.ts';

export const SYNC_JOB = 'sync-tracker-issues';
export const SYNC_LINK_JOB = 'sync-tracker-issue';

/** Backoff of a link whose tracker calls fail: 30 s, doubling, at most 6 h. */
const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
const SYNC_BATCH = 200;

/** Queues a sync of each link (after a delay for retries); a queue outage only delays them until the scheduled sync. */
export const queueLinkSyncs = (services: Services, linkIds: readonly string[], delayMs = 0) =>
  queueRows(
    services,
    SYNC_LINK_JOB,
    'linkId',
    linkIds.map((id) => ({ id, delayMs })),
    'tracker issue sync',
  );

const LINK_SELECT = {
  ...ANNOUNCED_SELECT,
  pendingAction: true,
  pendingComment: true,
  attempts: true,
  createdById: true,
  connection: {
    select: {
      id: true,
      kind: true,
      baseUrl: true,
      project: true,
      issueType: true,
      username: true,
      credentialSealed: true,
      fieldMapping: true,
      statusMapping: true,
      isActive: true,
    },
  },
} as const;

type Link = NonNullable<Awaited<ReturnType<typeof loadLink>>>;

const loadLink = (services: Services, id: string) => services.prisma.trackerLink.findUnique({ where: { id }, select: LINK_SELECT });

/** Records a failed tracker call on the link and its connection, in plain words, and schedules the retry. */
async function recordFailure(services: Services, link: Link, error: TrackerError): Promise<void> {
  const attempts = link.attempts + 1;
  const delay = error.retryAfterMs ?? backoffMs(attempts);
  const now = new Date();
  await services.prisma.$transaction([
    services.prisma.trackerLink.update({
      where: { id: link.id },
      data: { attempts, lastError: error.message, nextAttemptAt: new Date(now.getTime() + delay) },
    }),
    ...(error instanceof SubjectGoneError
      ? []
      : [
          services.prisma.trackerConnection.update({
            where: { id: link.connection.id },
            data: { lastError: error.message, lastErrorAt: now, consecutiveFailures: { increment: 1 } },
          }),
        ]),
  ]);
  await queueLinkSyncs(services, [link.id], delay);
}

async function recordSuccess(services: Services, connectionId: string): Promise<void> {
  await services.prisma.trackerConnection.update({
    where: { id: connectionId },
    data: { lastError: null, lastErrorAt: null, consecutiveFailures: 0, lastSyncAt: new Date() },
  });
}

/** Files a pending link's issue with the tracker. */
async function file(services: Services, client: TrackerClient, link: Link): Promise<void> {
  const draft = await draftOf(services, link, fieldMappingSchema.parse(link.connection.fieldMapping ?? {}));
  const issue = await client.createIssue(draft);
  await inTransaction(services, SYSTEM_ACTOR, async (uow) => {
    await transition(
      uow,
      link,
      'file',
      { issueKey: issue.key, issueUrl: issue.url, trackerStatus: 'open', assigneeAccountId: draft.assigneeAccountId },
      'pending',
    );
  });
  Object.assign(link, { status: 'open', issueKey: issue.key, issueUrl: issue.url, trackerStatus: 'open' });
}

/** The users behind a tracker account, to map the issue's assignee onto the test's remediation assignee. */
async function assigneeOf(uow: UnitOfWork, accountId: string | null) {
  if (!accountId) return null;
  const user = await uow.tx.user.findFirst({ where: { trackerAccountId: accountId, isActive: true }, select: { id: true } });
  return user?.id ?? null;
}

/** Applies what the tracker says of an issue: remediation status, assignee, and a close or reopen of the link. */
async function apply(services: Services, link: Link, issue: IssueState): Promise<void> {
  const remediation = remediationOf(link.connection.kind, issue, statusMappingSchema.parse(link.connection.statusMapping ?? {}));
  await inTransaction(services, SYSTEM_ACTOR, async (uow) => {
    const current = await uow.tx.trackerLink.findUniqueOrThrow({ where: { id: link.id }, select: ANNOUNCED_SELECT });
    const base = {
      trackerStatus: issue.status,
      assigneeAccountId: issue.assigneeAccountId,
      lastSyncedAt: new Date(),
      lastError: null,
      attempts: 0,
      nextAttemptAt: null,
    };
    const open = trackerLinkLifecycle.states[current.status].open;
    const assignee = await assigneeOf(uow, issue.assigneeAccountId);
    if (link.testId && assignee)
      await uow.tx.test.updateMany({
        where: { id: link.testId, remediationAssigneeId: { not: assignee } },
        data: { remediationAssigneeId: assignee },
      });
    if (open && remediation === 'completed') {
      const retest = link.testId ? await retestFor(uow, link, current.retestId) : null;
      await transition(uow, current, 'close_fixed', { ...base, retestId: retest }, 'completed');
      await setRemediation(uow, link.testId, 'completed');
    } else if (open && remediation === 'not_applicable') {
      await transition(uow, current, 'close_wont_fix', base, 'not_applicable');
      await setRemediation(uow, link.testId, 'not_applicable');
    } else if (!open && current.status !== 'pending' && (remediation === 'pending' || remediation === 'in_progress')) {
      await transition(uow, current, 'reopen', base, 'in_progress');
      await setRemediation(uow, link.testId, 'in_progress');
    } else {
      await uow.tx.trackerLink.update({ where: { id: link.id }, data: base });
      // A reopened issue back in a to-do status is still work in progress: the state table says so.
      const floor = trackerLinkLifecycle.states[current.status].remediation;
      const effective = remediation === 'pending' && floor ? floor : remediation;
      if (open) await setRemediation(uow, link.testId, effective);
      if (current.trackerStatus !== issue.status)
        announceStatus(uow, { ...current, trackerStatus: issue.status }, current.status, open ? effective : floor);
    }
  });
}

/** The retest of the latest decided test of the link's chain (the original, or the retest that failed last). */
async function retestFor(uow: UnitOfWork, link: Link, lastRetestId: string | null): Promise<string> {
  const of = lastRetestId ?? link.testId!;
  const createdById =
    link.createdById ?? (await uow.tx.test.findUniqueOrThrow({ where: { id: of }, select: { createdById: true } })).createdById;
  const retest = await insertRetest(uow, createdById, of, { select: { id: true } });
  return retest.id;
}

export type SyncOutcome = 'synced' | 'failed' | 'skipped';

/**
 * Brings one link in line with its tracker issue: files it while pending, delivers owed work (a reopen with its
 * comment), then reads the issue and applies its status. A tracker failure is stored on the link and the
 * connection in plain words and retried with backoff (or after the tracker's `Retry-After`); it never throws.
 */
export async function syncLink(services: Services, linkId: string): Promise<SyncOutcome> {
  const link = await loadLink(services, linkId);
  if (!link?.connection.isActive) return 'skipped';
  try {
    const client = clientFor(services, secretsOf(services, link.connection));
    if (link.status === 'pending') await file(services, client, link);
    if (link.pendingAction === 'reopen' && link.issueKey) {
      await client.reopen(link.issueKey);
      if (link.pendingComment) await client.comment(link.issueKey, link.pendingComment);
      await services.prisma.trackerLink.update({ where: { id: link.id }, data: { pendingAction: null, pendingComment: null } });
    }
    await apply(services, link, await client.getIssue(link.issueKey!));
    await recordSuccess(services, link.connection.id);
    return 'synced';
  } catch (error) {
    if (!(error instanceof TrackerError)) throw error;
    await recordFailure(services, link, error);
    return 'failed';
  }
}

/** Files now the issue of a link just created (its failure is recorded, never thrown). */
export const fileNow = async (services: Services, linkId: string) => void (await syncLink(services, linkId));

/** The scheduled sync: every link of an active connection that is not closed for good and not waiting for a retry. */
export async function syncDue(services: Services, connectionId?: string): Promise<{ synced: number; failed: number }> {
  const now = new Date();
  const links = await services.prisma.trackerLink.findMany({
    where: {
      connection: { isActive: true, ...(connectionId ? { id: connectionId } : {}) },
      status: { in: ['pending', 'open', 'reopened', 'fixed'] },
      OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }],
    },
    orderBy: [{ lastSyncedAt: { sort: 'asc', nulls: 'first' } }],
    select: { id: true },
    take: SYNC_BATCH,
  });
  let synced = 0;
  let failed = 0;
  for (const { id } of links) {
    const outcome = await syncLink(services, id);
    if (outcome === 'synced') synced++;
    if (outcome === 'failed') failed++;
  }
  return { synced, failed };
}

/** Queues the sync of every link of a connection (POST /tracker/connections/{id}/sync). */
export async function requestConnectionSync(services: Services, connectionId: string) {
  const connection = await services.prisma.trackerConnection.findUnique({ where: { id: connectionId }, select: { id: true } });
  if (!connection) throw new NotFoundError('Tracker connection', connectionId);
  services.jobs.assertAvailable();
  await services.jobs.enqueue(SYNC_JOB, { connectionId });
  return { detail: 'Sync queued' };
}

/**
 * A failed retest of a fixed issue: the link is reopened, the test's remediation is back in progress, and the same
 * issue is to be reopened in the tracker with a comment (by the sync queued once this commits), never a new one.
 */
export async function reopenAfterFailedRetest(uow: UnitOfWork, services: Services, retestId: string, outcome: string): Promise<void> {
  const link = await uow.tx.trackerLink.findFirst({
    where: { retestId, status: 'fixed' },
    select: ANNOUNCED_SELECT,
  });
  if (!link) return;
  const retest = await uow.tx.test.findUniqueOrThrow({ where: { id: retestId }, select: { name: true } });
  const comment = `Violet retest "${retest.name}" (${retestId}) failed: ${outcome}. The issue is reopened: the fix did not hold.`;
  await transition(
    uow,
    link,
    'reopen_after_retest',
    { pendingAction: 'reopen', pendingComment: comment, attempts: 0, nextAttemptAt: null },
    'in_progress',
  );
  await setRemediation(uow, link.testId, 'in_progress');
  uow.afterCommit(() => queueLinkSyncs(services, [link.id]));
}

const signatureOk = (secret: string, body: Buffer, header: string | undefined) => {
  if (!header?.startsWith('sha256=')) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/**
 * An inbound tracker webhook: verified against the connection's secret (GitHub `X-Hub-Signature-256`, Jira
 * `X-Hub-Signature`, both `sha256=<hex HMAC of the raw body>`), then the named issue's link is synced.
 */
export async function receiveWebhook(
  services: Services,
  connectionId: string,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ detail: string }> {
  const connection = await services.prisma.trackerConnection.findUnique({
    where: { id: connectionId },
    select: { id: true, kind: true, webhookSecretSealed: true },
  });
  if (!connection) throw new NotFoundError('Tracker connection', connectionId);
  if (!connection.webhookSecretSealed) throw new TrackerSignatureError();
  if (!signatureOk(trackerWebhookSecrets(services).open(connection.webhookSecretSealed), rawBody, signature))
    throw new TrackerSignatureError();
  let payload: { issue?: { number?: number; key?: string } };
  try {
    payload = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return { detail: 'Ignored: not JSON' };
  }
  const key = connection.kind === 'github' ? payload.issue?.number?.toString() : payload.issue?.key;
  if (!key) return { detail: 'Ignored: no issue' };
  const link = await services.prisma.trackerLink.findUnique({
    where: { connectionId_issueKey: { connectionId, issueKey: key } },
    select: { id: true },
  });
  if (!link) return { detail: 'Ignored: the issue is not linked' };
  await queueLinkSyncs(services, [link.id]);
  return { detail: 'Sync queued' };
}
