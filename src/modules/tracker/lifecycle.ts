import type { TrackerLinkStatus } from '../../generated/prisma/enums.ts';
import { defineLifecycle, type TransitionRow } from '../../lifecycle/kit.ts';

export type TrackerLinkAction = 'file' | 'close_fixed' | 'close_wont_fix' | 'reopen' | 'reopen_after_retest';

/** Every rule that depends on the status a tracker link is in. */
export interface TrackerLinkStateRule {
  /** The issue is open in the tracker: the sync reads it for a close. */
  open: boolean;
  /** The remediation status the test takes in this status (null: the tracker's own status decides). */
  remediation: 'completed' | 'not_applicable' | 'in_progress' | null;
}

/** The one table of link statuses, in lifecycle order, beside the transition table below. */
export const TRACKER_LINK_STATES: Readonly<Record<TrackerLinkStatus, TrackerLinkStateRule>> = {
  pending: { open: false, remediation: null },
  open: { open: true, remediation: null },
  fixed: { open: false, remediation: 'completed' },
  wont_fix: { open: false, remediation: 'not_applicable' },
  reopened: { open: true, remediation: 'in_progress' },
};

export interface TrackerLinkTransition extends TransitionRow<TrackerLinkStatus, TrackerLinkAction> {
  stamps: readonly ('fixedAt' | 'closedAt' | 'reopenedAt')[];
  /** The event the transition publishes besides `tracker.issue_status_changed` (which every transition publishes). */
  announces: 'tracker.issue_created' | 'tracker.issue_fixed' | 'tracker.issue_reopened' | null;
}

/**
 * The one transition table of tracker links. No endpoint backs a row: the tracker decides (read by the sync or a
 * tracker webhook), or a failed retest does; the roles are those whose requests can start the sync.
 */
export const TRACKER_LINK_TRANSITIONS: readonly TrackerLinkTransition[] = [
  {
    action: 'file',
    from: ['pending'],
    to: 'open',
    roles: [],
    audit: 'file_tracker_issue',
    stamps: [],
    announces: 'tracker.issue_created',
    summary: 'pending → open: the issue was created in the tracker',
  },
  {
    action: 'close_fixed',
    from: ['open', 'reopened'],
    to: 'fixed',
    roles: [],
    audit: 'tracker_issue_fixed',
    stamps: ['fixedAt', 'closedAt'],
    announces: 'tracker.issue_fixed',
    summary: 'open or reopened → fixed: the issue was closed as done; a retest is created and the red leads are told',
  },
  {
    action: 'close_wont_fix',
    from: ['open', 'reopened'],
    to: 'wont_fix',
    roles: [],
    audit: 'tracker_issue_wont_fix',
    stamps: ['closedAt'],
    announces: null,
    summary: 'open or reopened → wont_fix: the issue was closed as not planned; the remediation is not applicable',
  },
  {
    action: 'reopen',
    from: ['fixed', 'wont_fix'],
    to: 'reopened',
    roles: [],
    audit: 'tracker_issue_reopened',
    stamps: ['reopenedAt'],
    announces: 'tracker.issue_reopened',
    summary: 'fixed or wont_fix → reopened: the issue was reopened in the tracker',
  },
  {
    action: 'reopen_after_retest',
    from: ['fixed'],
    to: 'reopened',
    roles: [],
    audit: 'tracker_issue_reopened_after_retest',
    stamps: ['reopenedAt'],
    announces: 'tracker.issue_reopened',
    summary: 'fixed → reopened: the retest failed; the same issue is reopened in the tracker with a comment',
  },
];

export const trackerLinkLifecycle = defineLifecycle({
  noun: 'tracker issue',
  inState: (status: TrackerLinkStatus) => `the tracker issue is ${status}`,
  states: TRACKER_LINK_STATES,
  transitions: TRACKER_LINK_TRANSITIONS,
});
