import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type { Role } from '../../gql/graphql.ts';
import { useSession } from '../../session.tsx';
import { Pager } from '../../components/Pager.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { CreateUserForm } from './CreateUserForm.tsx';
import { UserRow } from './UserRow.tsx';

const PAGE = 20;

const UsersDocument = graphql(`
  query Users($offset: Int!, $limit: Int!) {
    users(offset: $offset, limit: $limit) { total items { id ...UserRow } }
  }
`);

const roleName = (role: string) => role.replace('_', ' ');

/** The accounts (administrators only): create, change role, deactivate; pages of twenty, the offset in the URL. */
export default function UsersPage() {
  const { viewer } = useSession();
  const roles = (viewer.roleSets.find((set) => set.name === 'any')?.roles ?? []) as Role[];
  const [search, setSearch] = useUrlState();
  const offset = offsetIn(search);
  const [{ data, error }, refetch] = useQuery({ query: UsersDocument, variables: { offset, limit: PAGE } });
  const [created, setCreated] = useState<string>();
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      <CreateUserForm
        roles={roles}
        roleName={roleName}
        onCreated={(username) => {
          setCreated(username);
          refresh();
        }}
      />
      {created && <p role="status">{`${created} was created and must change the temporary password at first sign-in.`}</p>}
      {error && <p role="alert">The users could not be loaded: {error.message}</p>}
      {data && (
        <>
          <table className="admin-table">
            <caption>{`${data.users.total} accounts`}</caption>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Password</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.users.items.map((user) => (
                <UserRow key={user.id} user={user} roles={roles} roleName={roleName} onChanged={refresh} />
              ))}
            </tbody>
          </table>
          <Pager
            label="User"
            offset={offset}
            limit={PAGE}
            count={data.users.items.length}
            total={data.users.total}
            onOffset={(next) => setSearch({ offset: offsetValue(next) })}
          />
        </>
      )}
    </section>
  );
}
