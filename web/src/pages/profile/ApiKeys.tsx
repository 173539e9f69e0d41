import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { type FragmentType, graphql, useFragment } from '../../gql';
import type { ApiKeyScope } from '../../gql/graphql.ts';
import { useSession } from '../../session.tsx';
import { type Problem, problemOf } from '../../components/problems.ts';

export const ApiKeyRowFragment = graphql(`
  fragment ApiKeyRow on ApiKey {
    id
    name
    prefix
    scope
    createdAt
    lastUsedAt
    revokedAt
  }
`);

const CreateApiKeyDocument = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { id name key }
  }
`);

const RevokeApiKeyDocument = graphql(`
  mutation RevokeApiKey($id: UUID!) {
    revokeApiKey(id: $id) { id revokedAt }
  }
`);

const date = (value: unknown) => (value ? new Date(String(value)).toLocaleString() : '—');

/** The own API keys: create one (its value shown once, with a copy button), see them all, revoke one. */
export function ApiKeys(props: { keys: FragmentType<typeof ApiKeyRowFragment>[]; onChanged(): void }) {
  const keys = useFragment(ApiKeyRowFragment, props.keys);
  const { viewer } = useSession();
  const scopes: ApiKeyScope[] = inRoleSet(viewer, 'admin') ? ['read', 'write', 'admin'] : ['read', 'write'];
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [problem, setProblem] = useState<Problem>();
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const [copied, setCopied] = useState<string>();
  const [{ fetching: creating }, create] = useMutation(CreateApiKeyDocument);
  const [, revoke] = useMutation(RevokeApiKeyDocument);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setCopied(undefined);
    const result = await create({ input: { name, scope } });
    setProblem(problemOf(result.error));
    if (result.data) {
      setCreated(result.data.createApiKey);
      setName('');
      props.onChanged();
    }
  }

  async function copy(key: string) {
    try {
      await navigator.clipboard.writeText(key);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('The browser refused the clipboard: select the key and copy it yourself.');
    }
  }

  const nameProblem = problem?.field === 'name' ? problem.message : undefined;
  return (
    <section aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      <form aria-label="New API key" className="profile-form inline-form" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor="api-key-name">Key name</label>
          <input
            id="api-key-name"
            value={name}
            maxLength={100}
            required
            aria-describedby={nameProblem ? 'api-key-name-error' : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          {nameProblem && (
            <p id="api-key-name-error" role="alert" className="error">
              {nameProblem}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="api-key-scope">Scope</label>
          <select id="api-key-scope" value={scope} onChange={(e) => setScope(e.target.value as ApiKeyScope)}>
            {scopes.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button primary" disabled={creating}>
          Create API key
        </button>
      </form>
      {problem && !nameProblem && (
        <p role="alert" className="error">
          {problem.message}
        </p>
      )}
      {created && (
        <section className="secret" aria-labelledby="new-key-title">
          <h3 id="new-key-title" className="text">
            New key “<bdi>{created.name}</bdi>”: store it now, it is shown only once
          </h3>
          <code data-testid="new-api-key">{created.key}</code>
          <button type="button" className="button" onClick={() => void copy(created.key)}>
            Copy the key
          </button>
          <button type="button" className="button" onClick={() => setCreated(undefined)}>
            Done
          </button>
          {copied && <p role="status">{copied}</p>}
        </section>
      )}
      {keys.length === 0 ? (
        <p>You have no API keys.</p>
      ) : (
        <table>
          <caption>Your keys, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Scope</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td className="text">{key.name}</td>
                <td>
                  <code>{key.prefix}</code>
                </td>
                <td>{key.scope}</td>
                <td>{date(key.createdAt)}</td>
                <td>{date(key.lastUsedAt)}</td>
                <td>
                  {key.revokedAt ? (
                    `Revoked ${date(key.revokedAt)}`
                  ) : (
                    <button
                      type="button"
                      className="button"
                      aria-label={`Revoke ${key.name}`}
                      onClick={async () => {
                        const result = await revoke({ id: key.id });
                        setProblem(problemOf(result.error));
                        props.onChanged();
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
