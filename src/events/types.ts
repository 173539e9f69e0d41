/** What every tracker event says of its link: ids, the issue and its status in the tracker's words, never a credential. */
export interface TrackerIssueFacts {
  linkId: string;
  connectionId: string;
  subjectType: string;
  subjectId: string;
  testId: string | null;
  issueKey: string | null;
  issueUrl: string | null;
  trackerStatus: string | null;
}

/** Every domain event, by name. Payloads carry ids and small facts, never secrets. */
export interface DomainEventPayloads {
  'notification.created': { notificationId: string; userId: string };
  'notification.read': { userId: string; notificationIds: string[] | 'all' };
  'technique.changed': { techniqueId: string; ttpId: string; change: 'created' | 'updated' | 'reviewed' };
  'coverage.changed': { techniqueIds: string[]; reason: string };
  'user.changed': { userId: string; change: 'created' | 'updated' | 'deactivated' | 'password_changed' };
  /** A session token was revoked (logout): connections opened with it end. */
  'session.ended': { userId: string; jti: string };
  'api_key.changed': { apiKeyId: string; userId: string; change: 'created' | 'revoked' };
  'test.changed': { testId: string; campaignId: string | null; change: string };
  'test.state_changed': { testId: string; techniqueId: string; campaignId: string | null; from: string; to: string };
  'test.validated': { testId: string; techniqueId: string; campaignId: string | null; detectionResult: string | null };
  'evidence.changed': { evidenceId: string; testId: string; change: 'uploaded' | 'deleted' };
  'data_source.synced': { dataSourceId: string; kind: string; status: 'succeeded' | 'failed'; changes: Record<string, unknown> };
  /** A catalog sync stored techniques it had not seen before (the fact behind the leads' new_techniques notice). */
  'catalog.techniques_added': { count: number; ttpIds: string[] };
  /** `actors` and `techniques` count the findings' distinct actors and techniques; `flagged` the techniques newly flagged for review. */
  'intel.scan_completed': { scanId: string; newItems: number; actors: number; techniques: number; flagged: number };
  /** A feed sync stored new items; `flaggedTtpIds`: techniques without validated coverage they newly flagged for review. */
  'osint.items_added': { feedId: string; runId: string; newItems: number; flagged: number; flaggedTtpIds: string[] };
  /** Techniques that newly entered the revalidation queue (their owners are told). */
  'revalidation.queued': { techniqueIds: string[] };
  /** A webhook was disabled after `reason` (its failing deliveries); the admins are told. */
  'webhook.disabled': { webhookId: string; reason: string };
  'campaign.changed': { campaignId: string; change: string };
  'campaign.completed': { campaignId: string; name: string; testCount: number; validatedCount: number; percentage: number };
  'snapshot.created': { snapshotId: string; kind: string };
  'risk.computed': { profiles: number };
  /** Detection assets, validations or infrastructure changes moved the detection confidence of these techniques. */
  'detection.changed': { techniqueIds: string[]; reason: string };
  'alert.fired': {
    alertId: string;
    ruleId: string;
    ruleName: string;
    ruleType: string;
    severity: string;
    subject: string;
    techniqueId: string | null;
    title: string;
    figures: Record<string, unknown>;
  };
  'alert.changed': { alertId: string; status: string };
  'attack_path.changed': { attackPathId: string; change: string };
  'attack_path_execution.changed': { executionId: string; attackPathId: string | null; change: string };
  /** A tracker issue was filed in the tracker (the link left pending). */
  'tracker.issue_created': TrackerIssueFacts;
  /** A link changed status, or its issue changed status in the tracker; `remediationStatus` is what that means for the remediation. */
  'tracker.issue_status_changed': TrackerIssueFacts & { from: string; to: string; remediationStatus: string | null };
  /** A tracker issue was closed as fixed: for a test, a retest was created (the red leads are told). */
  'tracker.issue_fixed': TrackerIssueFacts & { issueKey: string; retestId: string | null };
  /** A closed tracker issue was reopened: in the tracker (`tracker`) or by Violet after a failed retest (`retest_failed`). */
  'tracker.issue_reopened': TrackerIssueFacts & { reason: 'tracker' | 'retest_failed'; retestId: string | null };
  'attack_path_execution.state_changed': { executionId: string; attackPathId: string | null; from: string; to: string };
}

export type DomainEventType = keyof DomainEventPayloads;

export type DomainEvent = {
  [K in DomainEventType]: {
    /** Unique per event: consumers use it to apply each event once. */
    id: string;
    type: K;
    payload: DomainEventPayloads[K];
    occurredAt: string;
    actorId: string | null;
  };
}[DomainEventType];

export type EventOf<K extends DomainEventType> = Extract<DomainEvent, { type: K }>;
