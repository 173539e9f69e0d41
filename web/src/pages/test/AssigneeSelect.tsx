import { type FragmentType, graphql, useFragment } from '../../gql';

export const AssigneeOptionFragment = graphql(`
  fragment AssigneeOption on AssignableUser {
    id
    username
    displayName
    role
  }
`);

/** The role as words: the API's enum value with its underscore spelled out (red_tech → red tech). */
const roleWords = (role: string) => role.replace(/_/g, ' ');

/** The users a test may be assigned to (from the API's assignableUsers), with "Nobody" first. */
export function AssigneeSelect(props: {
  id: string;
  users: readonly FragmentType<typeof AssigneeOptionFragment>[];
  value: string;
  onChange(value: string): void;
  describedBy?: string;
  disabled?: boolean;
}) {
  const users = useFragment(AssigneeOptionFragment, props.users);
  return (
    <select
      id={props.id}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      aria-describedby={props.describedBy}
      disabled={props.disabled}
    >
      <option value="">Nobody</option>
      {users.map((user) => (
        <option key={user.id} value={user.id}>
          {user.displayName ? `${user.displayName} (${user.username})` : user.username}, {roleWords(user.role)}
        </option>
      ))}
    </select>
  );
}
