import { useCallback, useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../../gql';
import { ActionButtons } from '../board/ActionButton.tsx';
import { AssigneeEditor } from './AssigneeEditor.tsx';
import { stateLabel } from '../board/states.ts';
import { BlueForm } from './BlueForm.tsx';
import { Evidence } from './Evidence.tsx';
import { useActed } from '../../components/problems.ts';
import { RedForm } from './RedForm.tsx';
import { Remediation } from './Remediation.tsx';
import { TrackerIssue } from './TrackerIssue.tsx';
import { Retests } from './Retests.tsx';
import { Timer } from './Timer.tsx';
import { Timeline } from './Timeline.tsx';
import { Validation } from './Validation.tsx';
import { Outcome } from '../../components/Outcome.tsx';

const TestDetailDocument = graphql(`
  query TestDetail($id: UUID!) {
    test(id: $id) {
      id
      name
      description
      state
      platform
      technique { ttpId name }
      assignedToId
      assignedTo { username displayName }
      campaign { id name }
      myActions
      myEdits
      version
      decidedAt
      ...TimerPart
      ...RemediationPart
      ...TrackerIssuePart
      ...RedPart
      ...BluePart
      ...ValidationPart
      ...EvidencePart
    }
    testTimeline(testId: $id) { ...TimelineEntry }
    retestChain(testId: $id) { ...RetestEntry }
  }
`);

const TestChangedDocument = graphql(`
  subscription TestChanged($id: UUID!) {
    testStateChanged(testId: $id) { testId toState occurredAt }
  }
`);

const TestEditedDocument = graphql(`
  subscription TestEdited($id: UUID!) {
    testChanged(testId: $id) { testId change occurredAt }
  }
`);

/** One test: its header and actions, the red and blue parts, the leads' validation, the timeline and the evidence. */
export default function TestPage() {
  const { id = '' } = useParams();
  const [{ data, error, fetching }, reexecute] = useQuery({ query: TestDetailDocument, variables: { id } });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const [changed] = useSubscription({ query: TestChangedDocument, variables: { id } });
  const change = changed.data?.testStateChanged;
  useEffect(() => {
    if (change) refresh();
  }, [change, refresh]);
  // Every other change, whoever made it (an assignee, a side's fields, the timer, one lead's decision).
  const [edited] = useSubscription({ query: TestEditedDocument, variables: { id } });
  const edit = edited.data?.testChanged;
  useEffect(() => {
    if (edit) refresh();
  }, [edit, refresh]);
  const [problem, acted] = useActed(refresh);
  if (fetching && !data) return <p className="loading">Loading…</p>;
  if (error || !data) return <p role="alert">The test could not be loaded: {error?.message}</p>;
  const { test } = data;
  return (
    <article aria-labelledby="test-title" className="test-page">
      <p>
        <Link to="/board">Back to the board</Link>
      </p>
      <h1 id="test-title" className="text">
        {test.name}
      </h1>
      <dl className="facts">
        <dt>Technique</dt>
        <dd>
          <Link to={`/techniques/${encodeURIComponent(test.technique.ttpId)}`}>
            {test.technique.ttpId} {test.technique.name}
          </Link>
        </dd>
        <dt>State</dt>
        <dd data-testid="test-state">{stateLabel(test.state)}</dd>
        <dt>Platform</dt>
        <dd>{test.platform ?? '—'}</dd>
        <dt>Assignee</dt>
        <dd>{test.assignedTo ? test.assignedTo.displayName || test.assignedTo.username : 'nobody'}</dd>
        <dt>Campaign</dt>
        <dd>{test.campaign?.name ?? 'none'}</dd>
      </dl>
      {test.myEdits.includes('general') && (
        <AssigneeEditor key={test.id} testId={test.id} assignedToId={test.assignedToId} onSaved={acted} />
      )}
      <p className="text description">{test.description}</p>
      <ActionButtons
        actions={test.myActions}
        testId={test.id}
        describedBy="test-title"
        onDone={(failure) => acted(failure === undefined ? undefined : { message: failure })}
      />
      <Outcome problem={problem} />
      <div className="test-parts" key={test.state}>
        <RedForm test={test} onSaved={refresh} />
        <BlueForm test={test} onSaved={refresh} />
      </div>
      <Timer key={test.version} test={test} onChanged={refresh} />
      <Validation test={test} onDone={acted} />
      <Remediation key={`remediation-${test.state}`} test={test} onSaved={refresh} />
      <TrackerIssue test={test} onSaved={refresh} />
      <Retests testId={test.id} decided={Boolean(test.decidedAt)} chain={data.retestChain} />
      <Evidence test={test} onChanged={refresh} />
      <Timeline entries={data.testTimeline} />
    </article>
  );
}
