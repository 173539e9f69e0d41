import { type FragmentType, graphql, useFragment } from '../../gql';
import { Outcome } from '../../components/Outcome.tsx';
import { useSave } from './SideForm.tsx';

export const TrackerIssuePartFragment = graphql(`
  fragment TrackerIssuePart on Test {
    id
    canCreateTrackerIssue
    trackerIssue { id status issueKey issueUrl trackerStatus lastError }
  }
`);

const CreateTrackerIssueDocument = graphql(`
  mutation CreateTrackerIssueForTest($input: CreateTrackerIssueInput!) {
    createTrackerIssue(input: $input) { created issue { id status } }
  }
`);

const STATUS_WORDS: Record<string, string> = {
  pending: 'Not yet filed (the tracker will be tried again)',
  open: 'Open',
  fixed: 'Closed as fixed: a retest was created',
  wont_fix: 'Closed as not planned',
  reopened: 'Reopened after a failed retest',
};

/** The test's tracker issue with its status, and for leads (as the server says) the button that opens one. */
export function TrackerIssue(props: { test: FragmentType<typeof TrackerIssuePartFragment>; onSaved(): void }) {
  const test = useFragment(TrackerIssuePartFragment, props.test);
  const creating = useSave(CreateTrackerIssueDocument, props.onSaved);
  const issue = test.trackerIssue;
  if (!issue && !test.canCreateTrackerIssue) return null;
  return (
    <section aria-labelledby="tracker-title">
      <h2 id="tracker-title">Tracker issue</h2>
      {issue && (
        <dl className="facts">
          <dt>Issue</dt>
          <dd>
            {issue.issueUrl ? (
              <a href={issue.issueUrl} rel="noreferrer noopener" target="_blank">
                {issue.issueKey}
              </a>
            ) : (
              'not filed yet'
            )}
          </dd>
          <dt>Status</dt>
          <dd data-testid="tracker-status">
            {STATUS_WORDS[issue.status] ?? issue.status}
            {issue.trackerStatus ? ` (in the tracker: ${issue.trackerStatus})` : ''}
          </dd>
          {issue.lastError && (
            <>
              <dt>Last error</dt>
              <dd className="text">{issue.lastError}</dd>
            </>
          )}
        </dl>
      )}
      {test.canCreateTrackerIssue && (
        <>
          <button
            type="button"
            className="button"
            disabled={creating.busy}
            onClick={() => void creating.save({ input: { subjectType: 'test', subjectId: test.id } })}
          >
            Create tracker issue
          </button>
          <Outcome problem={creating.problem} done={false} fieldsShown="any" />
        </>
      )}
    </section>
  );
}
