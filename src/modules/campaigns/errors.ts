import { DomainError } from '../../errors.ts';
import type { CampaignStatus } from '../../generated/prisma/enums.ts';

/** Completing a campaign none of whose tests has started execution. */
export class NoExecutedTestsError extends DomainError {
  override readonly status = 400;
  override readonly code = 'NO_EXECUTED_TESTS';

  constructor() {
    super('A campaign completes only once at least one of its tests has started execution (execution_date set)');
  }
}

/** A change a completed campaign no longer accepts. */
export class CampaignClosedError extends DomainError {
  override readonly status = 400;
  override readonly code = 'EDIT_NOT_ALLOWED';

  constructor(what: string, currentStatus: CampaignStatus, allowed: readonly CampaignStatus[]) {
    super(`${what} is allowed only in ${allowed.join(' or ')}; the campaign is ${currentStatus}`);
    Object.assign(this.extra, { current_state: currentStatus, allowed_states: allowed });
  }
}

/** Adding a test that already belongs to another campaign. */
export class TestInOtherCampaignError extends DomainError {
  override readonly status = 409;
  override readonly code = 'TEST_IN_OTHER_CAMPAIGN';

  constructor(testId: string, campaignId: string) {
    super(`Test ${testId} already belongs to campaign ${campaignId}; remove it there first`);
    Object.assign(this.extra, { test_id: testId, campaign_id: campaignId });
  }
}
