import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { useUrlState } from '../../url-state.ts';
import { when } from './admin-forms.ts';
import { DataSourceDetail } from './DataSourceDetail.tsx';

const DataSourcesDocument = graphql(`
  query AdminDataSources {
    dataSources { id kind name status lastRunAt lastSuccessAt nextRunTime error }
  }
`);

export const statusName = (status: string) => status.replace('_', ' ');

/** The external data sources; `?source=<id>` opens one to edit, sync and read its run history. */
export default function DataSourcesPage() {
  const [search, setSearch] = useUrlState();
  const selected = search.get('source');
  const [{ data, error }, refetch] = useQuery({ query: DataSourcesDocument });
  return (
    <section aria-labelledby="sources-title">
      <h1 id="sources-title">Data sources</h1>
      {error && <p role="alert">The data sources could not be loaded: {error.message}</p>}
      {data && (
        <table className="admin-table">
          <caption>{`${data.dataSources.length} sources`}</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Status</th>
              <th scope="col">Last run</th>
              <th scope="col">Last success</th>
              <th scope="col">Next run</th>
            </tr>
          </thead>
          <tbody>
            {data.dataSources.map((source) => (
              <tr key={source.id} aria-current={source.id === selected ? 'true' : undefined}>
                <td>
                  <a
                    href={`?source=${encodeURIComponent(source.id)}`}
                    onClick={(event) => {
                      event.preventDefault();
                      setSearch({ source: source.id });
                    }}
                  >
                    {source.name}
                  </a>
                </td>
                <td>
                  {statusName(source.status)}
                  {source.error && <span className="text">{` (${source.error})`}</span>}
                </td>
                <td>{when(source.lastRunAt)}</td>
                <td>{when(source.lastSuccessAt)}</td>
                <td>{source.nextRunTime ? when(source.nextRunTime) : 'On request only'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected && <DataSourceDetail key={selected} id={selected} onChanged={() => refetch({ requestPolicy: 'network-only' })} />}
    </section>
  );
}
