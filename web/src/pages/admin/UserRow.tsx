import { useEffect, useState } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import type { Role } from '../../gql/graphql.ts';
import { useAction } from './admin-forms.ts';
import { ConfirmAction } from '../../components/ConfirmAction.tsx';
import { Outcome } from '../../components/Outcome.tsx';

export const UserRowFragment = graphql(`
  fragment UserRow on User { id username displayName role isActive mustChangePassword authSource }
`);

const UpdateRoleDocument = graphql(`
  mutation UpdateUserRole($id: UUID!, $role: Role!) {
    updateUser(id: $id, input: { role: $role }) { id ...UserRow }
  }
`);

const DeactivateDocument = graphql(`
  mutation DeactivateUser($id: UUID!) {
    deactivateUser(id: $id) { id ...UserRow }
  }
`);

/** One account: its role can be changed and it can be deactivated after a confirmation. */
export function UserRow(props: {
  user: FragmentType<typeof UserRowFragment>;
  roles: Role[];
  roleName(role: string): string;
  onChanged(): void;
}) {
  const user = useFragment(UserRowFragment, props.user);
  const [role, setRole] = useState<Role>(user.role);
  const changing = useAction(UpdateRoleDocument);
  const deactivating = useAction(DeactivateDocument);
  useEffect(() => setRole(user.role), [user.role]);
  const roleId = `role-${user.id}`;
  return (
    <tr>
      <td>{user.username}</td>
      <td className="text">{user.displayName ?? '—'}</td>
      <td>
        <label htmlFor={roleId} className="visually-hidden">{`Role of ${user.username}`}</label>
        <select id={roleId} value={role} disabled={!user.isActive} onChange={(e) => setRole(e.target.value as Role)}>
          {props.roles.map((candidate) => (
            <option key={candidate} value={candidate}>
              {props.roleName(candidate)}
            </option>
          ))}
        </select>{' '}
        {role !== user.role && (
          <button
            type="button"
            className="button small"
            disabled={changing.busy}
            onClick={async () => {
              if (await changing.run({ id: user.id, role }, `${user.username} is now ${props.roleName(role)}.`)) props.onChanged();
            }}
          >
            {`Save role of ${user.username}`}
          </button>
        )}
        <Outcome problem={changing.problem} done={changing.done} />
      </td>
      <td>{user.isActive ? 'Active' : 'Deactivated'}</td>
      <td>{user.mustChangePassword ? 'Must change at next sign-in' : user.authSource === 'saml' ? 'Single sign-on' : 'Set'}</td>
      <td>
        {user.isActive && (
          <ConfirmAction
            look="small"
            label={`Deactivate ${user.username}`}
            question={`Deactivate ${user.username}? They will no longer be able to sign in.`}
            confirmLabel="Confirm deactivation"
            busy={deactivating.busy}
            onConfirm={async () => {
              if (await deactivating.run({ id: user.id }, `${user.username} was deactivated.`)) props.onChanged();
            }}
          />
        )}
        <Outcome problem={deactivating.problem} done={deactivating.done} />
      </td>
    </tr>
  );
}
