import type { OsintReviewStatus } from '../../generated/prisma/enums.ts';
import { defineLifecycle, type TransitionRow } from '../../lifecycle/kit.ts';
import { osintRoles } from './permissions.ts';

export type OsintReviewAction = 'review' | 'dismiss' | 'reopen';

/** Every rule that depends on the review status of an item. */
export interface OsintReviewStateRule {
  /** Waiting for a lead: the item mentions a technique that had no validated coverage when it arrived. */
  awaitsReview: boolean;
}

/** The one table of review statuses, in lifecycle order. */
export const OSINT_REVIEW_STATES: Readonly<Record<OsintReviewStatus, OsintReviewStateRule>> = {
  not_flagged: { awaitsReview: false },
  flagged: { awaitsReview: true },
  reviewed: { awaitsReview: false },
  dismissed: { awaitsReview: false },
};

export interface OsintReviewTransition extends TransitionRow<OsintReviewStatus, OsintReviewAction> {
  from: readonly OsintReviewStatus[];
  to: OsintReviewStatus;
  path: OsintReviewAction;
  mutation: 'reviewOsintItem' | 'dismissOsintItem' | 'reopenOsintItem';
  stamps: readonly 'reviewedAt'[];
}

/** The one review transition table: routes, mutations, errors and docs read it. */
export const OSINT_REVIEW_TRANSITIONS: readonly OsintReviewTransition[] = [
  {
    action: 'review',
    path: 'review',
    mutation: 'reviewOsintItem',
    from: ['flagged'],
    to: 'reviewed',
    roles: osintRoles.review,
    audit: 'review_osint_item',
    stamps: ['reviewedAt'],
    summary: 'flagged → reviewed',
  },
  {
    action: 'dismiss',
    path: 'dismiss',
    mutation: 'dismissOsintItem',
    from: ['flagged'],
    to: 'dismissed',
    roles: osintRoles.review,
    audit: 'dismiss_osint_item',
    stamps: ['reviewedAt'],
    summary: 'flagged → dismissed',
  },
  {
    action: 'reopen',
    path: 'reopen',
    mutation: 'reopenOsintItem',
    from: ['reviewed', 'dismissed'],
    to: 'flagged',
    roles: osintRoles.review,
    audit: 'reopen_osint_item',
    stamps: [],
    summary: 'reviewed or dismissed → flagged',
  },
];

/** The review lifecycle of feed items. */
export const osintReviewLifecycle = defineLifecycle({
  noun: 'intel item',
  inState: (status: OsintReviewStatus) => `the item is ${status}`,
  states: OSINT_REVIEW_STATES,
  transitions: OSINT_REVIEW_TRANSITIONS,
});
