import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { PagedTable } from '../../components/PagedTable.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { when } from './admin-forms.ts';

const PAGE = 25;
const COLUMNS = ['When', 'User', 'Action', 'Entity', 'Details'];
/** The user filter offers the first accounts by username (the API's maximum page). */
const USER_CHOICES = 100;

const AuditFiltersDocument = graphql(`
  query AuditFilters($users: Int!) {
    auditLogActions
    auditLogEntityTypes
    users(limit: $users) { items { id username } }
  }
`);

const AuditLogsDocument = graphql(`
  query AuditLogs($filter: AuditLogFilter, $offset: Int!, $limit: Int!) {
    auditLogs(filter: $filter, offset: $offset, limit: $limit) {
      total
      items { id timestamp username action entityType entityId details }
    }
  }
`);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The audit log, newest first, paged on the server; every filter is in the URL (action, entity, user, from, to). */
export default function AuditLogPage() {
  const [search, setSearch] = useUrlState();
  const action = search.get('action') ?? '';
  const entity = search.get('entity') ?? '';
  const user = search.get('user') ?? '';
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  const offset = offsetIn(search);
  const filter = {
    ...(action ? { action } : {}),
    ...(entity ? { entityType: entity } : {}),
    ...(UUID.test(user) ? { userId: user } : {}),
    ...(DATE.test(from) ? { startDate: `${from}T00:00:00.000Z` } : {}),
    ...(DATE.test(to) ? { endDate: `${to}T23:59:59.999Z` } : {}),
  };
  const [filters] = useQuery({ query: AuditFiltersDocument, variables: { users: USER_CHOICES } });
  const [{ data, error }] = useQuery({ query: AuditLogsDocument, variables: { filter, offset, limit: PAGE } });
  const choose = (name: string) => (event: { target: { value: string } }) =>
    setSearch({ [name]: event.target.value || undefined, offset: undefined });
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form aria-label="Audit log filters" className="filters" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="audit-action">Action</label>
        <select key={filters.data ? 'audit-action' : 'audit-action-loading'} id="audit-action" value={action} onChange={choose('action')}>
          <option value="">Any action</option>
          {filters.data?.auditLogActions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <label htmlFor="audit-entity">Entity type</label>
        <select key={filters.data ? 'audit-entity' : 'audit-entity-loading'} id="audit-entity" value={entity} onChange={choose('entity')}>
          <option value="">Any entity type</option>
          {filters.data?.auditLogEntityTypes.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <label htmlFor="audit-user">User</label>
        <select key={filters.data ? 'audit-user' : 'audit-user-loading'} id="audit-user" value={user} onChange={choose('user')}>
          <option value="">Anyone</option>
          {filters.data?.users.items.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.username}
            </option>
          ))}
        </select>
        <label htmlFor="audit-from">From (UTC)</label>
        <input id="audit-from" type="date" value={from} onChange={choose('from')} />
        <label htmlFor="audit-to">To (UTC)</label>
        <input id="audit-to" type="date" value={to} onChange={choose('to')} />
      </form>
      {filters.error && <p role="alert">The filter choices could not be loaded: {filters.error.message}</p>}
      {error && <p role="alert">The audit log could not be loaded: {error.message}</p>}
      {data && (
        <PagedTable
          caption={`${data.auditLogs.total} ${data.auditLogs.total === 1 ? 'entry' : 'entries'}, newest first`}
          columns={COLUMNS}
          pager={{
            label: 'Audit log',
            offset,
            limit: PAGE,
            count: data.auditLogs.items.length,
            total: data.auditLogs.total,
            onOffset: (next) => setSearch({ offset: offsetValue(next) }),
          }}
        >
          {data.auditLogs.items.map((entry) => (
            <tr key={entry.id}>
              <td>{when(entry.timestamp)}</td>
              <td className="text">{entry.username}</td>
              <td>{entry.action}</td>
              <td className="text">{entry.entityId ? `${entry.entityType} ${entry.entityId}` : entry.entityType}</td>
              <td className="text audit-details">{JSON.stringify(entry.details)}</td>
            </tr>
          ))}
        </PagedTable>
      )}
    </section>
  );
}
