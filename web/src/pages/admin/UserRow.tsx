import { useEffect, useRef, useState } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import type { Role } from '../../gql/graphql.ts';
import { useAction } from './admin-forms.ts';
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
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const changing = useAction(UpdateRoleDocument);
  const deactivating = useAction(DeactivateDocument);
  useEffect(() => setRole(user.role), [user.role]);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
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
        {user.isActive && !confirming && (
          <button ref={askRef} type="button" className="button small" onClick={() => setConfirming(true)}>
            {`Deactivate ${user.username}`}
          </button>
        )}
        {confirming && (
          <fieldset className="confirm">
            <legend>{`Deactivate ${user.username}? They will no longer be able to sign in.`}</legend>
            <button
              ref={confirmRef}
              type="button"
              className="button small danger"
              disabled={deactivating.busy}
              onClick={async () => {
                const done = await deactivating.run({ id: user.id }, `${user.username} was deactivated.`);
                setConfirming(false);
                if (done) props.onChanged();
              }}
            >
              Confirm deactivation
            </button>{' '}
            <button
              type="button"
              className="button small"
              onClick={() => {
                setConfirming(false);
                requestAnimationFrame(() => askRef.current?.focus());
              }}
            >
              Cancel
            </button>
          </fieldset>
        )}
        <Outcome problem={deactivating.problem} done={deactivating.done} />
      </td>
    </tr>
  );
}
