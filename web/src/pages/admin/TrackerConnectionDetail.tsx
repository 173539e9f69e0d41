import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { PagedTable } from '../../components/PagedTable.tsx';
import { RecordActions } from './RecordActions.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { useAction, when } from './admin-forms.ts';
import { KIND_NAMES, TrackerConnectionForm } from './TrackerConnectionForm.tsx';

const ISSUE_PAGE = 20;
const ISSUE_COLUMNS = ['Issue', 'For', 'Status', 'In the tracker', 'Last error'];

const TrackerConnectionDocument = graphql(`
  query AdminTrackerConnection($id: UUID!, $offset: Int!, $limit: Int!) {
    trackerConnection(id: $id) {
      id name kind baseUrl project issueType username webhookSecret fieldMapping statusMapping isActive
      lastError lastErrorAt lastSyncAt consecutiveFailures
    }
    trackerIssues(connectionId: $id, offset: $offset, limit: $limit) {
      id subjectType subjectId status issueKey issueUrl trackerStatus lastError createdAt
    }
  }
`);

const SyncTrackerConnectionDocument = graphql(`
  mutation SyncTrackerConnection($id: UUID!) {
    syncTrackerConnection(id: $id) { detail }
  }
`);

const DeleteTrackerConnectionDocument = graphql(`
  mutation DeleteTrackerConnection($id: UUID!) {
    deleteTrackerConnection(id: $id)
  }
`);

/** Where a subject's page is in the app. */
const SUBJECT_PATHS: Record<string, (id: string) => string> = {
  test: (id) => `/tests/${id}`,
  alert: () => '/alerts',
  revalidation: () => '/revalidation',
};

/** One connection: its health, its settings, the address of its inbound webhook, a sync, deletion, and its issues. */
export function TrackerConnectionDetail(props: { id: string; onChanged(): void; onDeleted(): void }) {
  const [search, setSearch] = useUrlState();
  const offset = offsetIn(search, 'issues');
  const [{ data, error }, refetch] = useQuery({
    query: TrackerConnectionDocument,
    variables: { id: props.id, offset, limit: ISSUE_PAGE },
  });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const changed = () => {
    refresh();
    props.onChanged();
  };
  const syncing = useAction(SyncTrackerConnectionDocument);
  const deleting = useAction(DeleteTrackerConnectionDocument);
  if (error) return <p role="alert">The connection could not be loaded: {error.message}</p>;
  if (!data) return <p className="loading">Loading…</p>;
  const connection = data.trackerConnection;
  return (
    <section aria-labelledby="tracker-connection-title" className="admin-card">
      <h2 id="tracker-connection-title" className="text">{`Connection ${connection.name}`}</h2>
      <dl className="facts">
        <dt>Tracker</dt>
        <dd>{`${KIND_NAMES[connection.kind]}, ${connection.project}`}</dd>
        <dt>Last sync</dt>
        <dd>{when(connection.lastSyncAt)}</dd>
        <dt>Last error</dt>
        <dd className="text" data-testid="tracker-last-error">
          {connection.lastError
            ? `${connection.lastError} (${when(connection.lastErrorAt)}, ${connection.consecutiveFailures} failures in a row)`
            : 'None'}
        </dd>
        <dt>Inbound webhook</dt>
        <dd className="text">
          <code>{`${window.location.origin}/api/v1/tracker/webhooks/${connection.id}`}</code>
        </dd>
      </dl>
      <TrackerConnectionForm
        key={JSON.stringify([
          connection.name,
          connection.kind,
          connection.baseUrl,
          connection.project,
          connection.isActive,
          connection.webhookSecret,
        ])}
        connection={connection}
        onSaved={changed}
      />
      <RecordActions
        outcome={syncing}
        deleting={deleting}
        deleteLabel="Delete connection"
        question="Delete this connection and its issue links? The issues stay in the tracker."
        onDelete={async () => {
          if (await deleting.run({ id: connection.id }, 'Connection deleted.')) props.onDeleted();
        }}
      >
        <button
          type="button"
          className="button"
          disabled={syncing.busy || !connection.isActive}
          onClick={async () => {
            if (await syncing.run({ id: connection.id }, (result) => `${result.syncTrackerConnection.detail}.`)) refresh();
          }}
        >
          Sync now
        </button>
      </RecordActions>
      <PagedTable
        caption="Linked issues, newest first"
        columns={ISSUE_COLUMNS}
        pager={{
          label: 'Linked issue',
          offset,
          limit: ISSUE_PAGE,
          count: data.trackerIssues.length,
          more: data.trackerIssues.length === ISSUE_PAGE,
          onOffset: (next) => setSearch({ issues: offsetValue(next) }),
        }}
      >
        {data.trackerIssues.map((issue) => (
          <tr key={issue.id}>
            <td>{issue.issueUrl ? <a href={issue.issueUrl}>{issue.issueKey}</a> : 'Not filed yet'}</td>
            <td>
              <Link to={(SUBJECT_PATHS[issue.subjectType] ?? SUBJECT_PATHS.test)(issue.subjectId)}>{issue.subjectType}</Link>
            </td>
            <td>{issue.status.replace('_', ' ')}</td>
            <td className="text">{issue.trackerStatus ?? '—'}</td>
            <td className="text">{issue.lastError ?? '—'}</td>
          </tr>
        ))}
      </PagedTable>
    </section>
  );
}
