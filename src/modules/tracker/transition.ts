import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { TrackerIssueFacts } from '../../events/types.ts';
import type { TrackerLinkStatus } from '../../generated/prisma/enums.ts';
import { trackerLinkLifecycle, type TrackerLinkAction } from './lifecycle.ts';

/** A link as its events describe it: the facts every tracker event carries (the connection by id only: its credential never travels), its status and retest. */
export type AnnouncedLink = Omit<TrackerIssueFacts, 'linkId'> & { id: string; status: TrackerLinkStatus; retestId: string | null };

/** The link columns the events read, for a Prisma `select`. */
export const ANNOUNCED_SELECT = {
  id: true,
  status: true,
  connectionId: true,
  subjectType: true,
  subjectId: true,
  testId: true,
  issueKey: true,
  issueUrl: true,
  trackerStatus: true,
  retestId: true,
} as const satisfies Record<keyof AnnouncedLink, true>;

type LinkUpdate = Partial<Pick<AnnouncedLink, 'issueKey' | 'issueUrl' | 'trackerStatus' | 'retestId'>> & Record<string, unknown>;

const factsOf = (link: AnnouncedLink): TrackerIssueFacts => ({
  linkId: link.id,
  connectionId: link.connectionId,
  subjectType: link.subjectType,
  subjectId: link.subjectId,
  testId: link.testId,
  issueKey: link.issueKey,
  issueUrl: link.issueUrl,
  trackerStatus: link.trackerStatus,
});

/** Publishes that a link or its issue changed status (`from` equals `to` when only the tracker's status moved). */
export function announceStatus(uow: UnitOfWork, link: AnnouncedLink, to: TrackerLinkStatus, remediationStatus: string | null) {
  uow.emit('tracker.issue_status_changed', { ...factsOf(link), from: link.status, to, remediationStatus });
}

/**
 * Moves a link along its lifecycle in the caller's transaction: stamps, audits, and publishes
 * `tracker.issue_status_changed` with the event the transition row announces (created, fixed, reopened).
 */
export async function transition(
  uow: UnitOfWork,
  link: AnnouncedLink,
  action: TrackerLinkAction,
  data: LinkUpdate = {},
  remediationStatus: string | null = null,
) {
  const row = trackerLinkLifecycle.transition(action);
  trackerLinkLifecycle.assertFrom(row, link.status);
  const now = new Date();
  const to = trackerLinkLifecycle.targetsOf(row)[0];
  await uow.tx.trackerLink.update({
    where: { id: link.id },
    data: { ...data, status: to, ...Object.fromEntries(row.stamps.map((stamp) => [stamp, now])) },
  });
  await uow.audit({ action: row.audit, entityType: 'tracker_issue', entityId: link.id, details: { from: link.status, to } });
  const after: AnnouncedLink = { ...link, ...data };
  announceStatus(uow, after, to, remediationStatus ?? trackerLinkLifecycle.states[to].remediation);
  const facts = factsOf(after);
  if (row.announces === 'tracker.issue_created') uow.emit(row.announces, facts);
  if (row.announces === 'tracker.issue_fixed')
    uow.emit(row.announces, { ...facts, issueKey: facts.issueKey ?? '', retestId: after.retestId });
  if (row.announces === 'tracker.issue_reopened')
    uow.emit(row.announces, { ...facts, reason: action === 'reopen_after_retest' ? 'retest_failed' : 'tracker', retestId: after.retestId });
  return to;
}
