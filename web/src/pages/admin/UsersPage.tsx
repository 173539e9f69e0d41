import { useQuery } from 'urql';
import { graphql } from '../../gql';

const UsersDocument = graphql(`
  query Users {
    users(limit: 100) { total items { id username displayName role isActive } }
  }
`);

/** The accounts (administrators only). */
export default function UsersPage() {
  const [{ data, error }] = useQuery({ query: UsersDocument });
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      {error && <p role="alert">The users could not be loaded: {error.message}</p>}
      {data && (
        <table>
          <caption>
            {data.users.total} accounts{data.users.total > data.users.items.length ? ` (first ${data.users.items.length})` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {data.users.items.map((user) => (
              <tr key={user.id}>
                <td>{user.username}</td>
                <td>{user.displayName ?? '—'}</td>
                <td>{user.role.replace('_', ' ')}</td>
                <td>{user.isActive ? 'Active' : 'Deactivated'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
