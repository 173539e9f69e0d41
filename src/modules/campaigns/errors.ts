import { DomainError } from '../../errors.ts';

/** Completing a campaign none of whose tests has started execution. */
export class NoExecutedTestsError extends DomainError {
  override readonly status = 400;
  override readonly code = 'NO_EXECUTED_TESTS';

  constructor() {
    super('A campaign completes only once at least one of its tests has started execution (execution_date set)');
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
