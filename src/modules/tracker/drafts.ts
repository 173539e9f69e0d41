import type { RevalidationReason, TrackerSubject } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { levelOf } from '../risk/model.ts';
import type { IssueDraft } from './clients.ts';
import { SubjectGoneError } from './http.ts';
import { DEFAULT_PRIORITIES, type FieldMapping } from './mapping.ts';

/** A page of the web app, for the link back from an issue. */
const violetUrl = (services: Services, path: string) => `${services.config.PUBLIC_URL?.replace(/\/+$/, '') ?? ''}${path}`;

const priorityOf = (mapping: FieldMapping, level: keyof typeof DEFAULT_PRIORITIES) =>
  mapping.priorities?.[level] ?? DEFAULT_PRIORITIES[level];

/** Why a technique is in the revalidation queue, in the words of the issue. */
export const REVALIDATION_REASONS: Record<RevalidationReason, string> = {
  validation_expired: 'its validation expired',
  validation_invalidated: 'its validation was invalidated',
  infrastructure_change: 'the infrastructure changed since its validation',
  coverage_stale: 'its coverage was validated too long ago',
};

/** The issue text of a test's remediation: what failed, the steps, the ATT&CK id and a link back. */
async function testDraft(services: Services, testId: string, mapping: FieldMapping): Promise<IssueDraft> {
  const test = await services.prisma.test.findUniqueOrThrow({
    where: { id: testId },
    select: {
      id: true,
      name: true,
      state: true,
      detectionResult: true,
      remediationSteps: true,
      blueSummary: true,
      technique: { select: { ttpId: true, name: true, riskProfile: { select: { score: true } } } },
      remediationAssignee: { select: { trackerAccountId: true } },
    },
  });
  const level = test.technique.riskProfile ? levelOf(test.technique.riskProfile.score) : null;
  const outcome = test.state === 'rejected' ? 'rejected in review' : (test.detectionResult ?? 'not detected').replace('_', ' ');
  return {
    title: `${test.technique.ttpId} ${test.technique.name}: ${test.name} (${outcome})`,
    body: [
      `Violet test "${test.name}" of ATT&CK ${test.technique.ttpId} (${test.technique.name}): ${outcome}.`,
      test.blueSummary ? `Blue team: ${test.blueSummary}` : '',
      `Remediation: ${test.remediationSteps ?? 'to be decided'}`,
      level ? `Risk: ${level}` : '',
      `Test in Violet: ${violetUrl(services, `/tests/${test.id}`)}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    labels: ['violet', test.technique.ttpId, ...(mapping.labels ?? []), ...(level ? [`risk:${level}`] : [])],
    priority: level ? priorityOf(mapping, level) : null,
    assigneeAccountId: test.remediationAssignee?.trackerAccountId ?? null,
  };
}

async function alertDraft(services: Services, alertId: string, mapping: FieldMapping): Promise<IssueDraft> {
  const alert = await services.prisma.alertInstance.findUniqueOrThrow({
    where: { id: alertId },
    select: { id: true, title: true, severity: true, techniqueId: true },
  });
  const technique = alert.techniqueId
    ? await services.prisma.technique.findUnique({ where: { id: alert.techniqueId }, select: { ttpId: true } })
    : null;
  const ttp = technique?.ttpId;
  return {
    title: alert.title,
    body: [`Violet alert (${alert.severity}): ${alert.title}`, `Alert in Violet: ${violetUrl(services, `/alerts/${alert.id}`)}`].join(
      '\n\n',
    ),
    labels: ['violet', ...(ttp ? [ttp] : []), ...(mapping.labels ?? [])],
    priority: mapping.priorities?.[alert.severity as keyof typeof DEFAULT_PRIORITIES] ?? null,
    assigneeAccountId: null,
  };
}

/**
 * The issue text of a revalidation-queue entry: which technique, why it needs re-testing and since when, and links
 * back to the queue and the technique. The technique's red owner (else its owner for both) becomes the assignee.
 */
async function revalidationDraft(services: Services, entryId: string, mapping: FieldMapping): Promise<IssueDraft> {
  const entry = await services.prisma.revalidationEntry.findUnique({
    where: { id: entryId },
    select: {
      reason: true,
      detail: true,
      since: true,
      riskScore: true,
      technique: {
        select: {
          ttpId: true,
          name: true,
          ownerships: {
            where: { responsibility: { in: ['red', 'both'] } },
            orderBy: { responsibility: 'asc' },
            select: { owner: { select: { trackerAccountId: true } } },
          },
        },
      },
    },
  });
  // The queue is rebuilt from the facts: an entry whose reason stopped holding is gone; a pending link waits (backoff) rather than failing the sync.
  if (!entry) throw new SubjectGoneError('the revalidation entry left the queue before its issue was filed');
  const { technique } = entry;
  const level = levelOf(entry.riskScore);
  const why = REVALIDATION_REASONS[entry.reason];
  return {
    title: `Revalidate ${technique.ttpId} ${technique.name}: ${why}`,
    body: [
      `ATT&CK ${technique.ttpId} (${technique.name}) needs revalidation: ${why}.`,
      `Why: ${entry.detail} (since ${entry.since.toISOString().slice(0, 10)}).`,
      `What to do: run a new test of the technique and have it validated; the entry leaves the queue once a fresh validation exists.`,
      `Risk: ${level}`,
      `Revalidation queue in Violet: ${violetUrl(services, '/revalidation')}`,
      `Technique in Violet: ${violetUrl(services, `/techniques/${technique.ttpId}`)}`,
    ].join('\n\n'),
    labels: ['violet', technique.ttpId, 'revalidation', entry.reason, ...(mapping.labels ?? []), `risk:${level}`],
    priority: priorityOf(mapping, level),
    assigneeAccountId: technique.ownerships.find((ownership) => ownership.owner.trackerAccountId)?.owner.trackerAccountId ?? null,
  };
}

const DRAFTS: Record<TrackerSubject, (services: Services, subjectId: string, mapping: FieldMapping) => Promise<IssueDraft>> = {
  test: testDraft,
  alert: alertDraft,
  revalidation: revalidationDraft,
};

/** The issue to file for a link's subject. */
export const draftOf = (services: Services, link: { subjectType: TrackerSubject; subjectId: string }, mapping: FieldMapping) =>
  DRAFTS[link.subjectType](services, link.subjectId, mapping);
