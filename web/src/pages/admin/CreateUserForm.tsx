import { type FormEvent, useState } from 'react';
import { graphql } from '../../gql';
import type { Role } from '../../gql/graphql.ts';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, orNull, useAction } from './admin-forms.ts';
import { Outcome } from '../../components/Outcome.tsx';

const CreateUserDocument = graphql(`
  mutation CreateUser($input: CreateUserInput!) {
    createUser(input: $input) { id username }
  }
`);

const FIELDS = ['username', 'displayName', 'email', 'password', 'role'] as const;

/** A new account with a temporary password: the server makes its owner change it at first sign-in. */
export function CreateUserForm(props: { roles: Role[]; roleName(role: string): string; onCreated(username: string): void }) {
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const creating = useAction(CreateUserDocument);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { username, displayName: orNull(displayName), email: orNull(email), password, role };
    const data = await creating.run({ input }, '');
    if (!data) return;
    creating.reset();
    setUsername('');
    setDisplayName('');
    setEmail('');
    setPassword('');
    props.onCreated(data.createUser.username);
  };
  const problem = (field: string) => fieldProblem(creating.problem, field);
  return (
    <details className="admin-card">
      <summary>Create a user</summary>
      <form aria-label="Create a user" onSubmit={submit}>
        <fieldset disabled={creating.busy} className="admin-grid">
          <legend className="visually-hidden">New account</legend>
          <Field id="new-username" label="Username" error={problem('username')}>
            {(describedBy) => (
              <input
                id="new-username"
                required
                value={username}
                aria-describedby={describedBy}
                onChange={(e) => setUsername(e.target.value)}
              />
            )}
          </Field>
          <Field id="new-display-name" label="Display name" error={problem('displayName')}>
            {(describedBy) => (
              <input
                id="new-display-name"
                value={displayName}
                aria-describedby={describedBy}
                onChange={(e) => setDisplayName(e.target.value)}
              />
            )}
          </Field>
          <Field id="new-email" label="E-mail" error={problem('email')}>
            {(describedBy) => (
              <input id="new-email" type="email" value={email} aria-describedby={describedBy} onChange={(e) => setEmail(e.target.value)} />
            )}
          </Field>
          <Field id="new-password" label="Temporary password" error={problem('password')}>
            {(describedBy) => (
              <input
                id="new-password"
                type="password"
                autoComplete="new-password"
                required
                value={password}
                aria-describedby={describedBy ?? 'new-password-hint'}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <Field id="new-role" label="Role" error={problem('role')}>
            {(describedBy) => (
              <select id="new-role" value={role} aria-describedby={describedBy} onChange={(e) => setRole(e.target.value as Role)}>
                {props.roles.map((candidate) => (
                  <option key={candidate} value={candidate}>
                    {props.roleName(candidate)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </fieldset>
        <p id="new-password-hint" className="hint">
          12 to 256 characters, not the username. The user must change it at first sign-in.
        </p>
        <button type="submit" className="button primary" disabled={creating.busy}>
          Create user
        </button>
        <Outcome problem={creating.problem} fieldsShown={FIELDS} />
      </form>
    </details>
  );
}
