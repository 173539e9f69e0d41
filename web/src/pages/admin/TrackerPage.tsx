import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { Pager } from '../../components/Pager.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { when } from './admin-forms.ts';
import { TrackerConnectionDetail } from './TrackerConnectionDetail.tsx';
import { KIND_NAMES, TrackerConnectionForm } from './TrackerConnectionForm.tsx';

const PAGE = 50;

const TrackerConnectionsDocument = graphql(`
  query AdminTrackerConnections($offset: Int!, $limit: Int!) {
    trackerConnections(offset: $offset, limit: $limit) { id name kind project isActive lastError lastSyncAt consecutiveFailures }
  }
`);

/** The issue-tracker connections: add one, and `?connection=<id>` opens one to edit, sync, delete and list its issues. */
export default function TrackerPage() {
  const [search, setSearch] = useUrlState();
  const selected = search.get('connection');
  const offset = offsetIn(search);
  const [{ data, error }, refetch] = useQuery({ query: TrackerConnectionsDocument, variables: { offset, limit: PAGE } });
  const [notice, setNotice] = useState<string>();
  const [formKey, setFormKey] = useState(0);
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section aria-labelledby="tracker-title">
      <h1 id="tracker-title">Issue trackers</h1>
      <p className="hint">New issues go to the oldest active connection. Tokens and secrets are never shown once saved.</p>
      {error && <p role="alert">The connections could not be loaded: {error.message}</p>}
      {data && (
        <>
          <details className="admin-card">
            <summary>Add a connection</summary>
            <TrackerConnectionForm
              key={formKey}
              onSaved={(id) => {
                setFormKey(formKey + 1);
                setNotice('Connection added.');
                setSearch({ connection: id });
                refresh();
              }}
            />
          </details>
          {notice && <p role="status">{notice}</p>}
          <table className="admin-table">
            <caption>{`Connections ${data.trackerConnections.length ? offset + 1 : 0}–${offset + data.trackerConnections.length}, newest first`}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Tracker</th>
                <th scope="col">State</th>
                <th scope="col">Last sync</th>
              </tr>
            </thead>
            <tbody>
              {data.trackerConnections.map((connection) => (
                <tr key={connection.id} aria-current={connection.id === selected ? 'true' : undefined}>
                  <td className="text">
                    <a
                      href={`?connection=${encodeURIComponent(connection.id)}`}
                      onClick={(event) => {
                        event.preventDefault();
                        setSearch({ connection: connection.id });
                      }}
                    >
                      {connection.name}
                    </a>
                  </td>
                  <td className="text">{`${KIND_NAMES[connection.kind]}, ${connection.project}`}</td>
                  <td className="text">
                    {connection.isActive ? 'Active' : 'Inactive'}
                    {connection.lastError && `, failing (${connection.consecutiveFailures} in a row): ${connection.lastError}`}
                  </td>
                  <td>{when(connection.lastSyncAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            label="Connection"
            offset={offset}
            limit={PAGE}
            count={data.trackerConnections.length}
            more={data.trackerConnections.length === PAGE}
            onOffset={(next) => setSearch({ offset: offsetValue(next) })}
          />
          {selected && (
            <TrackerConnectionDetail
              key={selected}
              id={selected}
              onChanged={refresh}
              onDeleted={() => {
                setSearch({ connection: undefined });
                setNotice('Connection deleted.');
                refresh();
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
