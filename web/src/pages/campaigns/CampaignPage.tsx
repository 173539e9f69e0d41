import { useCallback } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { useActed } from '../../components/problems.ts';
import { CampaignActions } from './CampaignActions.tsx';
import { CampaignHistory } from './CampaignHistory.tsx';
import { CampaignProgress } from './CampaignProgress.tsx';
import { CampaignTests } from './CampaignTests.tsx';
import { DeleteCampaign } from './DeleteCampaign.tsx';
import { EditCampaignForm } from './EditCampaignForm.tsx';
import { day, statusLabel } from './format.ts';
import { useCampaignLive } from './live.ts';
import { ScheduleForm } from './ScheduleForm.tsx';
import { Outcome } from '../../components/Outcome.tsx';

export const CAMPAIGN_TEST_PAGE_SIZE = 25;

const CampaignDetailDocument = graphql(`
  query CampaignDetail($id: UUID!, $testsOffset: Int!, $testsLimit: Int!) {
    campaign(id: $id) {
      id
      name
      description
      type
      status
      startDate
      endDate
      recurrence
      nextOccurrence
      activatedAt
      completedAt
      threatActor { name externalId }
      createdBy { username displayName }
      myActions
      testCount
      tests(offset: $testsOffset, limit: $testsLimit) { id ...CampaignTestRow }
      ...CampaignSchedule
      ...CampaignDefinition
    }
    campaignProgress(id: $id) { ...CampaignProgressPart }
    campaignHistory(id: $id) { ...CampaignHistoryPart }
  }
`);

const moment = (value: string | null | undefined) => (value ? new Date(value).toLocaleString() : '—');

/** One campaign: its facts, the actions the caller's role may take now, progress, tests and history. */
export default function CampaignPage() {
  const { id = '' } = useParams();
  const [search, update] = useUrlState();
  const testsOffset = offsetIn(search, 'tests');
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: CampaignDetailDocument,
    variables: { id, testsOffset, testsLimit: CAMPAIGN_TEST_PAGE_SIZE },
  });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const [problem, acted] = useActed(refresh);
  const live = useCampaignLive(id, refresh);
  if (live.deleted)
    return (
      <p role="alert">
        This campaign was deleted meanwhile. <Link to="/campaigns">Back to the campaigns</Link>
      </p>
    );
  if (fetching && !data) return <p className="loading">Loading…</p>;
  if (error || !data) return <p role="alert">The campaign could not be loaded: {error?.message}</p>;
  const { campaign } = data;
  const may = (action: string) => campaign.myActions.includes(action);
  return (
    <article aria-labelledby="campaign-title" className="campaign-page">
      <p>
        <Link to="/campaigns">Back to the campaigns</Link>
      </p>
      <h1 id="campaign-title" className="text">
        {campaign.name}
      </h1>
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="campaign-status">{statusLabel(campaign.status)}</dd>
        <dt>Type</dt>
        <dd className="text">{campaign.type}</dd>
        <dt>Threat actor</dt>
        <dd className="text">
          {campaign.threatActor
            ? `${campaign.threatActor.name}${campaign.threatActor.externalId ? ` (${campaign.threatActor.externalId})` : ''}`
            : 'none'}
        </dd>
        <dt>Period (UTC)</dt>
        <dd>{`${day(campaign.startDate)} to ${day(campaign.endDate)}`}</dd>
        <dt>Recurrence</dt>
        <dd className="text">{campaign.recurrence ?? 'none'}</dd>
        <dt>Next occurrence</dt>
        <dd>{moment(campaign.nextOccurrence)}</dd>
        <dt>Activated</dt>
        <dd>{moment(campaign.activatedAt)}</dd>
        <dt>Completed</dt>
        <dd>{moment(campaign.completedAt)}</dd>
        <dt>Created by</dt>
        <dd className="text">{campaign.createdBy.displayName || campaign.createdBy.username}</dd>
      </dl>
      <p className="text description">{campaign.description}</p>
      <CampaignActions actions={campaign.myActions} campaignId={campaign.id} onDone={acted} />
      {(may('edit') || may('delete')) && (
        <div className="campaign-manage">
          {may('edit') && <EditCampaignForm campaign={campaign} onSaved={refresh} />}
          {may('delete') && <DeleteCampaign campaignId={campaign.id} />}
        </div>
      )}
      <Outcome problem={problem} />
      <p role="status" className="live-change text">
        {live.latest}
      </p>
      <CampaignProgress progress={data.campaignProgress} />
      <CampaignTests
        campaignId={campaign.id}
        tests={campaign.tests}
        testCount={campaign.testCount}
        offset={testsOffset}
        pageSize={CAMPAIGN_TEST_PAGE_SIZE}
        manage={may('manage_tests')}
        onPage={(offset) => update({ tests: offsetValue(offset) })}
        onDone={acted}
      />
      {may('schedule') && <ScheduleForm campaign={campaign} onSaved={refresh} />}
      <CampaignHistory history={data.campaignHistory} />
    </article>
  );
}
